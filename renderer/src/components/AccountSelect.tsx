import { useStationLink } from '../state/station-link.ts';

/** The account picker of the lists and the manual-return form; shown only when the station has several. */
export function AccountSelect({ value, onChange, className = 'text-field' }: { value: number | null; onChange(accountId: number): void; className?: string }) {
  const accounts = useStationLink((s) => s.status?.accounts ?? []);
  if (accounts.length <= 1) return null;
  return (
    <label className={className}>
      <span>Account</span>
      <select value={value ?? ''} onChange={(e) => onChange(Number(e.target.value))}>
        {accounts.map((a) => (
          <option key={a.id} value={a.id}>
            Account {a.id}
          </option>
        ))}
      </select>
    </label>
  );
}
