import type { Draft } from '../inspect/drafts.ts';
import { serialRuleOf, serialWanted } from '../inspect/serials.ts';
import { useStationSettings } from '../state/station-settings.ts';
import { usePackage } from './page-package.ts';

/*
 * The selected unit's serial (docs/decisions/serials.md): asked for when its SKU needs one and it has
 * none (the next scan is the serial: receiving-scan's serial-scan.ts), else shown with what the
 * station found — another unit with it is said in red.
 */

export function SerialPart({ draft }: { draft: Draft }) {
  const rules = useStationSettings((s) => s.serialRules);
  const ret = usePackage((s) => s.current?.ret ?? null);
  const rule = serialRuleOf(draft, ret, rules);
  const serial = draft.serial ?? null;
  if (serial === null) {
    if (rule === null) return null;
    return (
      <p className="serial-line serial-ask" data-testid="serial-prompt" role="status">
        <strong>Scan {serialWanted(rule)}</strong> — the unit is not complete without it.
      </p>
    );
  }
  const check = draft.serial_check ?? null;
  return (
    <p
      className={`serial-line ${check?.result === 'duplicate' ? 'serial-duplicate' : ''}`}
      data-testid="serial"
      data-serial={serial}
      data-check={check?.result ?? 'pending'}
    >
      {check?.result === 'duplicate' ? (
        // The finding names the serial and the other unit.
        <strong>{check.message} Held for review.</strong>
      ) : (
        <>
          Serial <span className="mono">{serial}</span>{' '}
          {check === null ? <small>checking…</small> : check.result === 'not_checked' ? <small>{check.message}</small> : <small>✓ no other unit has it</small>}
        </>
      )}
    </p>
  );
}
