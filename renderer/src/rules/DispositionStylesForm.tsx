import { DISPOSITIONS, type Disposition, type DispositionStyles } from '#shared/dispositions.ts';
import { describedBy, errorId, FieldError } from './FieldError.tsx';
import { styleFieldId } from './rules-draft.ts';

/** The six dispositions' names and colours (#rrggbb), each with its swatch, folded below the table. */
export function DispositionStylesForm({
  styles,
  errors,
  change,
}: {
  styles: DispositionStyles;
  errors: ReadonlyMap<string, string>;
  change: (styles: DispositionStyles) => void;
}) {
  const refused = DISPOSITIONS.some((d) => errors.has(styleFieldId(d, 'label')) || errors.has(styleFieldId(d, 'color')));
  const set = (d: Disposition, field: 'label' | 'color', value: string) => change({ ...styles, [d]: { ...styles[d], [field]: value } });
  return (
    // Folded away (the table needs the room at 1024×600), unfolded when a refusal is about it.
    <details className="rules-styles-box" open={refused || undefined}>
      <summary className="btn btn-small">Dispositions: names and colours</summary>
      <fieldset className="rules-styles" data-testid="disposition-styles">
        <legend className="sr-only">Dispositions: names and colours</legend>
        {DISPOSITIONS.map((d) => {
          const labelId = styleFieldId(d, 'label');
          const colorId = styleFieldId(d, 'color');
          return (
            <div key={d} className="rules-style">
              <span className="rules-swatch" style={{ backgroundColor: styles[d].color }} aria-hidden="true" />
              <input
                aria-label={`${d.replaceAll('_', ' ')} name`}
                data-testid={`style-label-${d}`}
                value={styles[d].label}
                maxLength={40}
                onChange={(e) => set(d, 'label', e.target.value)}
                {...describedBy(labelId, errors.get(labelId))}
              />
              <input
                className="mono rules-color"
                aria-label={`${d.replaceAll('_', ' ')} colour (#rrggbb)`}
                data-testid={`style-color-${d}`}
                value={styles[d].color}
                maxLength={7}
                onChange={(e) => set(d, 'color', e.target.value)}
                {...describedBy(colorId, errors.get(colorId))}
              />
              <FieldError id={errorId(labelId)} message={errors.get(labelId)} />
              <FieldError id={errorId(colorId)} message={errors.get(colorId)} />
            </div>
          );
        })}
      </fieldset>
    </details>
  );
}
