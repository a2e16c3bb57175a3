import { useEffect, useRef } from 'react';
import { useCamera } from '../media/camera.ts';
import { useHeldKey } from '../scan/held-key.ts';
import { registerScanField } from '../scan/scan-field.ts';
import { useSession } from '../session/session-store.ts';
import { noticeShownOn, useFeedback } from '../state/feedback-store.ts';
import { useNav } from '../state/nav-store.ts';
import { toggleCameraScan } from '../workflow/commands.ts';
import { CameraScanView } from './CameraScanView.tsx';

const PROMPT: Record<string, string> = {
  scan: 'Scan a parcel’s tracking number',
  package: 'Scan each item (barcode or SKU)',
  register: 'Scan or type the customer’s email, return id or a SKU',
  packages: 'Scan a tracking number to open its package',
  returns: 'Scan a tracking number to open its package',
};

/**
 * The scan field that owns the screen, the outcome of the last scan in its colour, and camera
 * scanning. The field is uncontrolled: keystrokes at scanner speed never wait for a React render.
 */
export function ScanBar() {
  const ref = useRef<HTMLInputElement>(null);
  const screen = useNav((s) => s.screen);
  const signedIn = useSession((s) => s.operator !== null);
  const latest = useFeedback((s) => s.notice);
  const notice = latest && noticeShownOn(latest, screen) ? latest : null;
  const cameraMode = useCamera((s) => s.mode);
  // A lone shortcut key is shown, not done: the field says how to go on (key-capture.ts).
  const held = useHeldKey((s) => s.char);

  useEffect(() => {
    registerScanField(ref.current);
    ref.current?.focus();
    return () => registerScanField(null);
  }, []);

  const prompt = signedIn ? (PROMPT[screen] ?? PROMPT.scan) : 'Scan your badge, or press your number below';
  return (
    <section className="scan-bar" aria-label="Scan">
      <div className="scan-row">
        <label className="scan-label" htmlFor="scan-field">
          {prompt}
        </label>
        <input
          id="scan-field"
          ref={ref}
          className="scan-field"
          data-testid="scan-field"
          autoComplete="off"
          autoCorrect="off"
          spellCheck={false}
          enterKeyHint="go"
          data-held={held ?? undefined}
          placeholder={held === null ? 'Scan or type, then Enter' : `${held} — Enter or the next scan does it · keep typing for a code · Esc drops it`}
        />
        <button
          type="button"
          className={`btn btn-secondary ${cameraMode === 'scan' ? 'btn-active' : ''}`}
          onClick={() => void toggleCameraScan()}
          aria-pressed={cameraMode === 'scan'}
        >
          Camera scan <kbd>F9</kbd>
        </button>
      </div>
      <p
        className={`notice ${notice ? `notice-${notice.tone}` : ''}`}
        role="status"
        aria-live="assertive"
        data-testid="notice"
        data-tone={notice?.tone ?? ''}
        data-seq={notice?.seq ?? 0}
      >
        {notice?.message ?? ' '}
      </p>
      {cameraMode === 'scan' && <CameraScanView />}
    </section>
  );
}
