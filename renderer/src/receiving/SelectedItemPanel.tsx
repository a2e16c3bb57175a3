import { useState } from 'react';
import { CONDITION_KEYS } from '../inspect/conditions.ts';
import { focusScan } from '../scan/scan-field.ts';
import { changeQuantity, printSelectedLabel, setConditionKey, splitUnit, toggleDefective } from '../workflow/commands.ts';
import { DispositionBanner } from './DispositionBanner.tsx';
import { OverridePanel } from './OverridePanel.tsx';
import { SerialPart } from './SerialPart.tsx';
import { lockReasonOf } from './package-store.ts';
import { usePackage } from './page-package.ts';

/** Details of the selected unit: condition (number keys), defective, + / −, notes, barcode, tags. */
export function SelectedItemPanel() {
  const draft = usePackage((s) => s.drafts.find((d) => d.key === s.selectedKey) ?? null);
  const ret = usePackage((s) => s.current?.ret ?? null);
  const preview = usePackage((s) => s.conditionPreview);
  const edit = usePackage((s) => s.edit);
  const locked = usePackage((s) => lockReasonOf(s) !== null);

  // A received or cancelled package takes no scans: its state (PackageNotices) is all there is to say.
  if (!draft) return locked ? null : <p className="hint selected-empty">Scan an item to record it; the last scanned item is selected for its condition.</p>;
  const line = ret?.return_line_items.find((l) => l.id === draft.return_line_item_id);
  const name = line?.name ?? draft.name ?? 'Unexpected item';

  return (
    <section className="selected" aria-label={`Selected item: ${name}`} data-testid="selected-item">
      <div className="selected-head">
        <h3>
          Selected: {name}
          {draft.quantity > 1 && <span className="qty"> × {draft.quantity}</span>}
        </h3>
        <DispositionBanner draft={preview?.key === draft.key ? preview : draft} />
      </div>
      <SerialPart draft={draft} />
      <OverridePanel />
      <div className="button-row condition-buttons" role="group" aria-label="Condition" data-testid="condition-panel">
        {CONDITION_KEYS.map((c) => (
          <button
            key={c.condition}
            type="button"
            className={`btn btn-condition ${draft.condition === c.condition ? 'btn-active' : ''}`}
            aria-pressed={draft.condition === c.condition}
            onClick={() => setConditionKey(c.key)}
          >
            <kbd>{c.key}</kbd> {c.label}
            {c.grade && <small> {c.grade}</small>}
          </button>
        ))}
      </div>
      <div className="button-row">
        <button type="button" className={`btn btn-toggle ${draft.defective ? 'btn-warn-active' : ''}`} aria-pressed={draft.defective} onClick={toggleDefective}>
          Defective <kbd>F3</kbd>
        </button>
        <button
          type="button"
          className="btn btn-qty"
          aria-label={draft.quantity > 1 ? 'One unit less' : 'Take this unit off'}
          onClick={() => changeQuantity(-1)}
        >
          − <kbd>-</kbd>
        </button>
        <button type="button" className="btn btn-qty" aria-label="Another unit" onClick={() => changeQuantity(1)}>
          + <kbd>+</kbd>
        </button>
        {draft.quantity > 1 && (
          <button type="button" className="btn btn-toggle" onClick={splitUnit}>
            Split a unit <kbd>F6</kbd>
          </button>
        )}
        {draft.unit_id !== null && (
          // "Labelled" once its label was made, here or on another terminal (then − keeps the unit).
          <button
            type="button"
            className={`btn btn-toggle print-label ${draft.labelled === true ? 'btn-active' : ''}`}
            data-testid="print-label"
            data-labelled={draft.labelled === true}
            aria-label={`${draft.labelled === true ? 'Labelled' : 'Label'} ${draft.unit_id} (F5)`}
            onClick={() => void printSelectedLabel()}
          >
            <span className="print-label-word">{draft.labelled === true ? 'Labelled' : 'Label'}</span>{' '}
            <span className="mono print-label-unit">{draft.unit_id}</span> <kbd>F5</kbd>
          </button>
        )}
      </div>
      <div className="field-row">
        <TextField key={`n-${draft.key}`} label="Notes" value={draft.notes ?? ''} onCommit={(v) => edit(draft.key, { notes: v.trim() === '' ? null : v })} />
        <TextField
          key={`b-${draft.key}`}
          label="Item barcode"
          value={draft.barcode ?? ''}
          onCommit={(v) => edit(draft.key, { barcode: v.trim() === '' ? null : v.trim() })}
        />
      </div>
    </section>
  );
}

/** A field that saves when left or on Enter, then gives the keyboard back to the scan field. */
function TextField({ label, value, onCommit }: { label: string; value: string; onCommit(value: string): void }) {
  const [text, setText] = useState(value);
  const commit = () => {
    if (text !== value) onCommit(text);
  };
  return (
    <label className="text-field" data-scan-passthrough>
      <span>{label}</span>
      <input
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.defaultPrevented) {
            e.preventDefault();
            commit();
            focusScan();
          }
        }}
      />
    </label>
  );
}
