import { useState, type FormEvent } from 'react';
import { MAX_SERIAL_RULES, SerialRulesSchema } from '#shared/api/serial-rules.ts';
import { MAX_SERIAL_LENGTH, type SerialRuleLike } from '#shared/serials.ts';
import { useStationSettings } from '../state/station-settings.ts';
import { SiteManagedNote } from './SiteManagedNote.tsx';
import { useSiteManaged } from './site-managed.ts';

/*
 * The serial rules in Settings (docs/decisions/serials.md): one row per SKU pattern that needs its
 * serial, of which kind. Saved whole (a supervisor's; on a site's member the hub's, shown read-only);
 * checked here with the station's own schema first, then by the station.
 */

type Row = { sku_pattern: string; kind: 'imei' | 'text'; min_length: string; max_length: string };

const rowOf = (rule: SerialRuleLike): Row =>
  rule.kind === 'imei'
    ? { sku_pattern: rule.sku_pattern, kind: 'imei', min_length: '1', max_length: String(MAX_SERIAL_LENGTH) }
    : { sku_pattern: rule.sku_pattern, kind: 'text', min_length: String(rule.min_length), max_length: String(rule.max_length) };

const ruleOf = (row: Row) =>
  row.kind === 'imei'
    ? { sku_pattern: row.sku_pattern, kind: 'imei' as const }
    : { sku_pattern: row.sku_pattern, kind: 'text' as const, min_length: Number(row.min_length), max_length: Number(row.max_length) };

export function SerialRulesForm() {
  const saved = useStationSettings((s) => s.serialRules);
  return <SerialRulesRows key={JSON.stringify(saved)} saved={saved} />;
}

function SerialRulesRows({ saved }: { saved: readonly SerialRuleLike[] }) {
  const [rows, setRows] = useState<Row[]>(() => saved.map(rowOf));
  const [message, setMessage] = useState<string | null>(null);
  const managed = useSiteManaged((s) => s.managed !== null);
  const change = (i: number, patch: Partial<Row>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = SerialRulesSchema.safeParse(rows.map(ruleOf));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const at = typeof issue?.path[0] === 'number' ? `Rule ${issue.path[0] + 1}: ` : '';
      return setMessage(`${at}${issue?.message ?? 'Check the rules.'}`);
    }
    const refused = await useStationSettings.getState().change({ serial_rules: parsed.data });
    setMessage(refused ?? (parsed.data.length === 0 ? 'No unit needs its serial.' : 'Saved: the dock asks for these serials.'));
  };
  return (
    <form className="serial-rules" aria-label="Serial numbers" data-testid="serial-rules" onSubmit={(e) => void save(e)}>
      <h3>Serial numbers</h3>
      <p className="small">
        Units whose SKU matches a pattern need their serial, scanned after the item (<code>PHONE-*</code>: <code>*</code> any characters, <code>?</code> one).
      </p>
      <SiteManagedNote what="the serial rules" />
      <fieldset disabled={managed}>
        {rows.map((row, i) => (
          <div className="settings-pair serial-rule" key={i} data-testid="serial-rule">
            <label>
              SKU pattern <input value={row.sku_pattern} size={12} maxLength={64} onChange={(e) => change(i, { sku_pattern: e.target.value })} />
            </label>
            <label>
              Serial{' '}
              <select value={row.kind} onChange={(e) => change(i, { kind: e.target.value === 'imei' ? 'imei' : 'text' })}>
                <option value="imei">IMEI (15 digits, checked)</option>
                <option value="text">text</option>
              </select>
            </label>
            {row.kind === 'text' && (
              <>
                <label>
                  from{' '}
                  <input type="number" min={1} max={MAX_SERIAL_LENGTH} value={row.min_length} onChange={(e) => change(i, { min_length: e.target.value })} />
                </label>
                <label>
                  to <input type="number" min={1} max={MAX_SERIAL_LENGTH} value={row.max_length} onChange={(e) => change(i, { max_length: e.target.value })} />{' '}
                  characters
                </label>
              </>
            )}
            <button type="button" className="btn btn-small" aria-label={`Delete rule ${i + 1}`} onClick={() => setRows(rows.filter((_, j) => j !== i))}>
              ✕
            </button>
          </div>
        ))}
        <div className="button-row">
          <button
            type="button"
            className="btn btn-small"
            data-testid="serial-rule-add"
            disabled={rows.length >= MAX_SERIAL_RULES}
            onClick={() => setRows([...rows, { sku_pattern: '', kind: 'imei', min_length: '1', max_length: String(MAX_SERIAL_LENGTH) }])}
          >
            Add a rule
          </button>
          <button type="submit" className="btn btn-small" data-testid="serial-rules-save">
            Save serial rules
          </button>
        </div>
      </fieldset>
      {message && (
        <p role="status" data-testid="serial-rules-state">
          {message}
        </p>
      )}
    </form>
  );
}
