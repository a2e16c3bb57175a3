import { CONDITIONS, DISPOSITIONS, type DispositionStyles } from '#shared/dispositions.ts';
import { PACKAGE_STATUSES } from '#shared/package-status.ts';
import { conditionLabel } from '../inspect/conditions.ts';
import { describedBy, errorId, FieldError } from './FieldError.tsx';
import { ruleFieldId, type DefectiveChoice, type DraftRule, type RuleField } from './rules-draft.ts';
import { SetPicker } from './SetPicker.tsx';

const CONDITION_OPTIONS = CONDITIONS.map((c) => ({ value: c, label: conditionLabel(c) }));
const STATUS_OPTIONS = PACKAGE_STATUSES.map((s) => ({ value: s, label: s.replace('_', ' ') }));

interface RuleRowProps {
  rule: DraftRule;
  index: number;
  count: number;
  styles: DispositionStyles;
  errors: ReadonlyMap<string, string>;
  change: (rule: DraftRule) => void;
  move: (by: -1 | 1) => void;
  remove: () => void;
}

/** One rule of the table: its conditions → its disposition and bin, each refusal beside its field. */
export function RuleRow({ rule, index, count, styles, errors, change, move, remove }: RuleRowProps) {
  const n = index + 1;
  const id = (field: RuleField) => ruleFieldId(rule.key, field);
  const err = (field: RuleField) => errors.get(id(field));
  // data-label names a field where the row has no column heads (two lines a rule at 800 px).
  const text = (field: 'name' | 'reason_contains' | 'sku_prefix' | 'bin', label: string, maxLength: number) => (
    <td data-label={label.charAt(0).toUpperCase() + label.slice(1)}>
      <input
        className={field === 'bin' ? 'mono' : undefined}
        data-testid={`rule-${field}`}
        aria-label={`Rule ${n} ${label}`}
        value={rule[field]}
        maxLength={maxLength}
        onChange={(e) => change({ ...rule, [field]: e.target.value })}
        {...describedBy(id(field), err(field))}
      />
      <FieldError id={errorId(id(field))} message={err(field)} />
    </td>
  );
  const whole = errors.get(ruleFieldId(rule.key));
  const style = styles[rule.disposition];
  return (
    <>
      <tr data-testid="rule-row" data-rule={n} className={whole ? 'rules-refused' : undefined}>
        <th scope="row">{n}</th>
        {text('name', 'name', 60)}
        <td data-label="Condition">
          <SetPicker
            label={`Rule ${n} condition`}
            fieldId={id('condition')}
            options={CONDITION_OPTIONS}
            value={rule.condition}
            error={err('condition')}
            onChange={(condition) => change({ ...rule, condition })}
          />
          <FieldError id={errorId(id('condition'))} message={err('condition')} />
        </td>
        <td data-label="Defective">
          <select
            data-testid="rule-defective"
            aria-label={`Rule ${n} defective`}
            value={rule.defective}
            onChange={(e) => change({ ...rule, defective: e.target.value as DefectiveChoice })}
            {...describedBy(id('defective'), err('defective'))}
          >
            <option value="any">any</option>
            <option value="yes">yes</option>
            <option value="no">no</option>
          </select>
          <FieldError id={errorId(id('defective'))} message={err('defective')} />
        </td>
        {text('reason_contains', 'reason contains', 100)}
        {text('sku_prefix', 'SKU prefix', 100)}
        <td data-label="Package status">
          <SetPicker
            label={`Rule ${n} package status`}
            fieldId={id('package_status')}
            options={STATUS_OPTIONS}
            value={rule.package_status}
            error={err('package_status')}
            onChange={(package_status) => change({ ...rule, package_status })}
          />
          <FieldError id={errorId(id('package_status'))} message={err('package_status')} />
        </td>
        <td className="rules-disposition" data-label="→ Disposition">
          <span className="rules-swatch" style={{ backgroundColor: style.color }} aria-hidden="true" />
          <select
            data-testid="rule-disposition"
            aria-label={`Rule ${n} disposition`}
            value={rule.disposition}
            onChange={(e) => change({ ...rule, disposition: e.target.value as DraftRule['disposition'] })}
            {...describedBy(id('disposition'), err('disposition'))}
          >
            {DISPOSITIONS.map((d) => (
              <option key={d} value={d}>
                {styles[d].label || d}
              </option>
            ))}
          </select>
          <FieldError id={errorId(id('disposition'))} message={err('disposition')} />
        </td>
        {text('bin', 'bin', 20)}
        <td className="rules-actions">
          <button type="button" className="btn btn-small" aria-label={`Move rule ${n} up`} disabled={index === 0} onClick={() => move(-1)}>
            ↑
          </button>
          <button type="button" className="btn btn-small" aria-label={`Move rule ${n} down`} disabled={index === count - 1} onClick={() => move(1)}>
            ↓
          </button>
          <button type="button" className="btn btn-small" data-testid="rule-delete" aria-label={`Delete rule ${n}`} onClick={remove}>
            ✕
          </button>
        </td>
      </tr>
      {whole && (
        <tr className="rules-refused">
          <td colSpan={10}>
            <span className="rules-error" data-testid="rule-error" data-rule={n}>
              Rule {n}: {whole}
            </span>
          </td>
        </tr>
      )}
    </>
  );
}
