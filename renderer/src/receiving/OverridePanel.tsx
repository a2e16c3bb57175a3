import { useEffect, useRef, useState } from 'react';
import { type Disposition, DISPOSITIONS } from '#shared/dispositions.ts';
import { focusScan } from '../scan/scan-field.ts';
import { useDispositionRules } from '../state/disposition-rules.ts';
import { overrideDisposition } from '../workflow/commands.ts';
import { useOverride } from './override-store.ts';

/** F10: the dispositions by number, then a line for why. Keyboard only; Esc leaves. */
export function OverridePanel() {
  const state = useOverride((s) => s.state);
  const styles = useDispositionRules((s) => s.styles);
  if (state.step === 'closed') return null;
  if (state.step === 'pick') {
    return (
      <div className="override-panel" role="group" aria-label="Override the disposition" data-testid="override-panel">
        <span>Override — press its number:</span>
        {DISPOSITIONS.map((d, i) => (
          <button key={d} type="button" className="btn btn-override" style={{ borderColor: styles[d].color }} onClick={() => useOverride.getState().pick(i)}>
            <kbd>{i + 1}</kbd> {styles[d].label}
          </button>
        ))}
        <kbd>Esc</kbd>
      </div>
    );
  }
  // Keyed by the disposition picked: a new pick starts with an empty reason.
  return <ReasonField key={state.disposition} disposition={state.disposition} label={styles[state.disposition].label} />;
}

function ReasonField({ disposition, label }: { disposition: Disposition; label: string }) {
  const [reason, setReason] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <label className="override-panel text-field" data-scan-passthrough data-testid="override-reason">
      <span>Why {label}? (Enter)</span>
      <input
        ref={input}
        value={reason}
        maxLength={200}
        onChange={(e) => setReason(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.defaultPrevented) {
            e.preventDefault();
            if (overrideDisposition(disposition, reason)) {
              useOverride.getState().close();
              focusScan();
            }
          }
        }}
      />
    </label>
  );
}
