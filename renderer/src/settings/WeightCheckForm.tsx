import { useState, type FormEvent } from 'react';
import { WEIGHT_UNITS } from '#shared/api/common.ts';
import { type WeightCheckSettings, WeightCheckSettingsSchema } from '#shared/api/weight-check.ts';
import { useReveal } from '../components/use-reveal.ts';
import { useStationSettings } from '../state/station-settings.ts';
import { SiteManagedNote } from './SiteManagedNote.tsx';
import { useSiteManaged } from './site-managed.ts';

/*
 * The weight check's setting in Settings (docs/decisions/weight-check.md): how far a parcel may be
 * from what it should weigh — the larger of a percentage and an absolute weight — and the box's tare
 * added to learned SKU weights. A supervisor's; on a site's member the hub's, shown read-only.
 * Checked here with the station's own schema first, then by the station. Text fields with a decimal
 * keyboard, not number fields: a controlled number field loses "0." while a person types "0.05".
 */

type Fields = Record<'tolerance_percent' | 'tolerance_absolute' | 'box_tare', string> & { unit: WeightCheckSettings['unit'] };

const fieldsOf = (saved: WeightCheckSettings): Fields => ({
  tolerance_percent: String(saved.tolerance_percent),
  tolerance_absolute: String(saved.tolerance_absolute),
  box_tare: String(saved.box_tare),
  unit: saved.unit,
});

/** A field left empty is refused by the schema (not taken for 0); a decimal comma is a point. */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim().replace(',', '.')));

const LABELS: Record<string, string> = { tolerance_percent: 'Percent', tolerance_absolute: 'Absolute', box_tare: 'Box tare' };

export function WeightCheckForm() {
  const saved = useStationSettings((s) => s.weightCheck);
  // The outcome outlives the fields, which start again from what the station saved.
  const [message, setMessage] = useState<string | null>(null);
  return <WeightCheckFields key={JSON.stringify(saved)} saved={saved} message={message} setMessage={setMessage} />;
}

function WeightCheckFields({ saved, message, setMessage }: { saved: WeightCheckSettings; message: string | null; setMessage: (message: string) => void }) {
  const [fields, setFields] = useState<Fields>(() => fieldsOf(saved));
  const outcome = useReveal<HTMLParagraphElement>(message);
  const managed = useSiteManaged((s) => s.managed !== null);
  const change = (patch: Partial<Fields>) => setFields({ ...fields, ...patch });
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = WeightCheckSettingsSchema.safeParse({
      tolerance_percent: numberOf(fields.tolerance_percent),
      tolerance_absolute: numberOf(fields.tolerance_absolute),
      box_tare: numberOf(fields.box_tare),
      unit: fields.unit,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = typeof issue?.path[0] === 'string' ? `${LABELS[issue.path[0]] ?? issue.path[0]}: ` : '';
      return setMessage(`${field}${issue?.code === 'invalid_type' ? 'give a number.' : (issue?.message ?? 'check the values.')}`);
    }
    const refused = await useStationSettings.getState().change({ weight_check: parsed.data });
    const w = parsed.data;
    setMessage(
      refused ?? `Saved: a parcel is off when it is more than ${w.tolerance_percent} % and more than ${w.tolerance_absolute} ${w.unit} from its weight.`,
    );
  };
  return (
    <form className="weight-check-settings" aria-label="Weight check" data-testid="weight-check-settings" onSubmit={(e) => void save(e)}>
      <h3>Weight check</h3>
      <p className="small">
        A weighed parcel is flagged and held when it is further from what it should weigh than both allow (the larger of the two). The box tare is added to
        weights learned from SKUs.
      </p>
      <SiteManagedNote what="the weight check" />
      <fieldset disabled={managed}>
        <div className="settings-pair">
          <label>
            Percent{' '}
            <input
              type="text"
              inputMode="decimal"
              size={6}
              data-testid="weight-tolerance-percent"
              value={fields.tolerance_percent}
              onChange={(e) => change({ tolerance_percent: e.target.value })}
            />{' '}
            %
          </label>
          <label>
            Absolute{' '}
            <input
              type="text"
              inputMode="decimal"
              size={6}
              data-testid="weight-tolerance-absolute"
              value={fields.tolerance_absolute}
              onChange={(e) => change({ tolerance_absolute: e.target.value })}
            />
          </label>
          <label>
            Box tare{' '}
            <input
              type="text"
              inputMode="decimal"
              size={6}
              data-testid="weight-box-tare"
              value={fields.box_tare}
              onChange={(e) => change({ box_tare: e.target.value })}
            />
          </label>
          <label>
            Unit{' '}
            <select data-testid="weight-unit" value={fields.unit} onChange={(e) => change({ unit: WEIGHT_UNITS.find((u) => u === e.target.value) ?? 'kg' })}>
              {WEIGHT_UNITS.map((unit) => (
                <option key={unit} value={unit}>
                  {unit}
                </option>
              ))}
            </select>
          </label>
        </div>
        <div className="button-row">
          <button type="submit" className="btn btn-small" data-testid="weight-check-save">
            Save weight check
          </button>
        </div>
      </fieldset>
      {message && (
        <p role="status" data-testid="weight-check-state" ref={outcome}>
          {message}
        </p>
      )}
    </form>
  );
}
