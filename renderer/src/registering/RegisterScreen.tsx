import { useEffect, useState } from 'react';
import { type CurrencyCode, ISO_4217_CURRENCIES as CURRENCIES } from '#shared/api/currencies.ts';
import type { ManualReturnCreateInput } from '#shared/api/returns.ts';
import { describeError } from '../api/describe-error.ts';
import { pageClient } from '../api/station-api.ts';
import { AccountSelect } from '../components/AccountSelect.tsx';
import { heldPicks, useHeldKey } from '../scan/held-key.ts';
import { focusScan } from '../scan/scan-field.ts';
import { notify } from '../state/feedback-store.ts';
import { stationAccounts, useStationLink } from '../state/station-link.ts';
import { useStationSettings } from '../state/station-settings.ts';
import { latestAccountCurrency } from './account-currency.ts';
import { useRegister } from './register-store.ts';

/**
 * A parcel the station does not know: attach it to its return (scan or type the email, return id or
 * a SKU in the scan field; number keys pick), or create a manual return for it — keyboard only.
 */
export function RegisterScreen() {
  const { trackingNumber, candidates, query, searching, error, choose } = useRegister();
  const held = useHeldKey((s) => s.char);
  return (
    <section className="panel" aria-labelledby="register-title" data-testid="register-view">
      <h2 id="register-title">
        Register parcel <span className="mono">{trackingNumber}</span>
      </h2>
      <p className="hint">Find its return: scan or type the customer&apos;s email, the return id or a SKU from the parcel, then Enter.</p>
      {searching && <p className="hint">Searching…</p>}
      {error && (
        <p className="inline-error" role="alert">
          {error}
        </p>
      )}
      {query && !searching && candidates.length === 0 && <p className="hint">No return matches “{query}”.</p>}
      {candidates.length > 0 && (
        <ul className="choice-list" data-testid="register-candidates">
          {candidates.map((c, i) => (
            <li key={`${c.account_id}-${c.return.id}`}>
              <button
                type="button"
                className="btn btn-choice"
                data-held={heldPicks(held, i) ? '' : undefined}
                onClick={() => void choose(c).catch((e: unknown) => notify('error', describeError(e)))}
              >
                {i < 9 && <kbd>{i + 1}</kbd>} Return #{c.return.id} · {c.return.email} · {c.return.return_line_items.length} line(s) ·{' '}
                {c.return.status.replace('_', ' ')} · account {c.account_id}
              </button>
            </li>
          ))}
        </ul>
      )}
      <ManualReturnForm trackingNumber={trackingNumber} />
    </section>
  );
}

interface LineInput {
  sku: string;
  name: string;
  quantity: string;
}

function inDays(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return d.toISOString().slice(0, 10);
}

/** The currency of a new manual return: the worker's pick, else the account's (its latest return's), else the station's. */
function useManualReturnCurrency(account: number | null): [CurrencyCode, (currency: CurrencyCode) => void] {
  const [picked, setPicked] = useState<CurrencyCode | null>(null);
  const [accountCurrency, setAccountCurrency] = useState<{ account: number; currency: CurrencyCode } | null>(null);
  const stationCurrency = useStationSettings((s) => s.currency);
  useEffect(() => {
    if (account === null) return;
    let live = true;
    void latestAccountCurrency(pageClient, account).then((latest) => {
      if (live && latest) setAccountCurrency({ account, currency: latest });
    });
    return () => {
      live = false;
    };
  }, [account]);
  const currency = picked ?? (accountCurrency?.account === account ? accountCurrency.currency : null) ?? stationCurrency ?? 'USD';
  return [currency, setPicked];
}

/** The manual return as the station takes it: what the worker typed, everything else defaulted. */
function manualReturnInput(form: { email: string; reason: string; currency: CurrencyCode; lines: LineInput[] }): Omit<ManualReturnCreateInput, 'account_id'> {
  const { currency } = form;
  return {
    email: form.email.trim(),
    receive_by: inDays(30),
    total_price: 0,
    currency,
    weight: 0,
    weight_unit: 'g',
    reason_of_return: form.reason.trim() || 'Not given',
    length: 0,
    width: 0,
    height: 0,
    dimension_unit: 'cm',
    return_line_items: form.lines
      .filter((l) => l.sku.trim() !== '')
      .map((l) => {
        const quantity = Math.max(1, Number.parseInt(l.quantity, 10) || 1);
        return { quantity, unreceived_quantity: quantity, name: l.name.trim() || l.sku.trim(), price: 0, currency, merchant_sku: l.sku.trim() };
      }),
  };
}

/** The shortest manual return a dock worker can fill in: email, reason, lines; the rest defaulted. */
function ManualReturnForm({ trackingNumber }: { trackingNumber: string }) {
  const accounts = useStationLink((s) => s.status?.accounts ?? []);
  const createManual = useRegister((s) => s.createManual);
  const [accountId, setAccountId] = useState<number | null>(null);
  const [email, setEmail] = useState('');
  const [reason, setReason] = useState('');
  const [lines, setLines] = useState<LineInput[]>([{ sku: '', name: '', quantity: '1' }]);
  const [busy, setBusy] = useState(false);
  const account = accountId ?? accounts[0]?.id ?? stationAccounts()[0] ?? null;
  const [currency, setCurrency] = useManualReturnCurrency(account);
  const setLine = (i: number, change: Partial<LineInput>) => setLines(lines.map((l, j) => (j === i ? { ...l, ...change } : l)));

  const submit = async () => {
    if (account === null) return notify('error', 'The station has no account to create the return in.');
    setBusy(true);
    try {
      await createManual(account, manualReturnInput({ email, reason, currency, lines }));
      notify('success', `Manual return created; parcel ${trackingNumber} registered.`);
    } catch (error) {
      notify('error', describeError(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="manual-return"
      aria-labelledby="manual-title"
      onSubmit={(e) => {
        e.preventDefault();
        void submit().then(focusScan);
      }}
    >
      <h3 id="manual-title">…or create a manual return for it</h3>
      <div className="field-row">
        <AccountSelect value={account} onChange={setAccountId} />
        <label className="text-field">
          <span>Customer email</span>
          <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} name="email" />
        </label>
        <label className="text-field">
          <span>Reason</span>
          <input value={reason} onChange={(e) => setReason(e.target.value)} name="reason" />
        </label>
        <label className="text-field narrow">
          <span>Currency</span>
          <select value={currency} onChange={(e) => setCurrency(e.target.value as CurrencyCode)}>
            {CURRENCIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
      </div>
      {lines.map((line, i) => (
        <LineFields key={i} index={i} line={line} onChange={(change) => setLine(i, change)} />
      ))}
      <div className="button-row">
        <button type="button" className="btn btn-secondary" onClick={() => setLines([...lines, { sku: '', name: '', quantity: '1' }])}>
          Add a line
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Create return and register parcel
        </button>
      </div>
    </form>
  );
}

/** One line of the manual return: SKU (a scan into it stays there), name, quantity. */
function LineFields({ index: i, line, onChange }: { index: number; line: LineInput; onChange: (change: Partial<LineInput>) => void }) {
  return (
    <div className="field-row" role="group" aria-label={`Line ${i + 1}`}>
      <label className="text-field">
        <span>SKU</span>
        <input required={i === 0} value={line.sku} onChange={(e) => onChange({ sku: e.target.value })} name={`sku-${i}`} />
      </label>
      <label className="text-field">
        <span>Name</span>
        <input value={line.name} onChange={(e) => onChange({ name: e.target.value })} name={`name-${i}`} />
      </label>
      <label className="text-field narrow">
        <span>Quantity</span>
        <input type="number" min={1} value={line.quantity} onChange={(e) => onChange({ quantity: e.target.value })} name={`qty-${i}`} />
      </label>
    </div>
  );
}
