import { ALL_ACCOUNTS } from '../lists/lists-store.ts';
import { useStationLink } from '../state/station-link.ts';

/** The account picker of the lists and the manual-return form; shown only when the station has several. `allowAll`: offers "All accounts" (ALL_ACCOUNTS). */
export function AccountSelect({
  value,
  onChange,
  className = 'text-field',
  allowAll = false,
}: {
  value: number | null;
  onChange(accountId: number): void;
  className?: string;
  allowAll?: boolean;
}) {
  const accounts = useStationLink((s) => s.status?.accounts ?? []);
  if (accounts.length <= 1) return null;
  return (
    <label className={className}>
      <span>Account</span>
      <select value={value ?? ''} onChange={(e) => onChange(Number(e.target.value))}>
        {allowAll && <option value={ALL_ACCOUNTS}>All accounts</option>}
        {accounts.map((a) => (
          <option key={a.id} value={a.id}>
            Account {a.id}
          </option>
        ))}
      </select>
    </label>
  );
}
