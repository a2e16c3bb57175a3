import { describedBy } from './FieldError.tsx';

/**
 * A set of values as ticks, folded into one line: none ticked is any. Native checkboxes in a
 * details element, so Tab, Enter and Space do everything.
 */
export function SetPicker<T extends string>({
  label,
  fieldId,
  options,
  value,
  error,
  onChange,
}: {
  label: string;
  fieldId: string;
  options: readonly { value: T; label: string }[];
  value: readonly T[];
  error: string | undefined;
  onChange: (next: T[]) => void;
}) {
  const shown =
    value.length === 0
      ? 'any'
      : options
          .filter((o) => value.includes(o.value))
          .map((o) => o.label)
          .join(', ');
  const toggle = (v: T, on: boolean) => onChange(options.map((o) => o.value).filter((o) => (o === v ? on : value.includes(o))));
  return (
    <details className="rules-set" data-testid={`rules-set-${fieldId}`}>
      <summary aria-label={`${label}: ${shown}`} {...describedBy(fieldId, error)}>
        {shown}
      </summary>
      <fieldset>
        <legend>{label} (none ticked: any)</legend>
        {options.map((o) => (
          <label key={o.value}>
            <input type="checkbox" checked={value.includes(o.value)} onChange={(e) => toggle(o.value, e.target.checked)} /> {o.label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
