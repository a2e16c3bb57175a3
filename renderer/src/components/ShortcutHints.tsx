import { lockReasonOf } from '../receiving/package-store.ts';
import { usePackage } from '../receiving/page-package.ts';
import { useSession } from '../session/session-store.ts';
import { useSiteManaged } from '../settings/site-managed.ts';
import { useNav } from '../state/nav-store.ts';

const HINTS: Record<string, readonly [string, string][]> = {
  signin: [
    ['Scan', 'badge'],
    ['1–9', 'pick your name'],
  ],
  // A station with nobody to sign in: its first supervisor's form.
  'first-supervisor': [
    ['Tab', 'next field'],
    ['Enter', 'set up the supervisor'],
  ],
  scan: [
    ['Enter', 'open parcel'],
    ['F9', 'camera scan'],
    ['Alt+P', 'packages'],
    ['Alt+R', 'returns'],
  ],
  package: [
    ['Scan', 'add one unit'],
    ['1–6', 'condition'],
    ['↑ ↓', 'item'],
    ['+ −', 'add / remove unit'],
    ['F3', 'defective'],
    ['F6', 'split a unit'],
    ['F4', 'photo'],
    ['F8', 'undo'],
    ['F2', 'receive'],
    ['F7', 'correct receipt'],
    ['F5', 'label'],
    ['Esc', 'back'],
  ],
  // A received package (its correction) and a cancelled one take no receive: their keys say so.
  'package-received': [
    ['F7', 'correct receipt'],
    ['Scan', 'next parcel'],
    ['Esc', 'back'],
  ],
  'package-cancelled': [
    ['Scan', 'next parcel'],
    ['Esc', 'back'],
  ],
  register: [
    ['Scan', 'find return'],
    ['1–9', 'attach to return'],
    ['Tab', 'manual return form'],
    ['Esc', 'back'],
  ],
  packages: [
    ['Tab', 'filters and search'],
    ['Alt+S', 'receive'],
    ['Alt+R', 'returns'],
  ],
  returns: [
    ['Tab', 'filters and search'],
    ['Alt+S', 'receive'],
    ['Alt+P', 'packages'],
  ],
  'print-queue': [
    ['Tab', 'cancel a waiting label'],
    ['Esc', 'back'],
    ['Alt+S', 'receive'],
  ],
  settings: [
    ['Alt+1–4', 'section'],
    ['Tab', 'next setting'],
    ['Esc', 'back'],
    ['Alt+S', 'receive'],
  ],
  rules: [
    ['Tab', 'next field'],
    ['Enter', 'save'],
    ['Esc', 'back (asks when not saved)'],
  ],
  commands: [
    ['Esc', 'back'],
    ['Alt+S', 'receive'],
  ],
  sync: [
    ['Tab', 'upstream, waiting changes'],
    ['Esc', 'back'],
    ['Alt+S', 'receive'],
  ],
  // On a site's member the workers and the rules are the hub's: nothing to type, only the way back.
  'workers-managed': [
    ['Tab', 'next'],
    ['Esc', 'back'],
  ],
  'rules-managed': [
    ['Tab', 'next'],
    ['Esc', 'back'],
  ],
  workers: [
    ['Tab', 'next field'],
    ['Enter', 'add / save worker'],
    ['Alt+U', 'supervisor sign-in'],
    ['Esc', 'back'],
  ],
  supervisor: [
    ['Tab', 'day, late after, export, lists'],
    ['Alt+L', 'print queue'],
    ['Alt+S', 'receive'],
    ['Alt+P', 'packages'],
    ['Alt+R', 'returns'],
  ],
};

/** The keys of the current screen, always on screen. */
export function ShortcutHints() {
  const screen = useNav((s) => s.screen);
  const signedIn = useSession((s) => s.operator !== null);
  const nobody = useSession((s) => s.operators.length === 0);
  // Locked: received (not being corrected) or cancelled.
  const locked = usePackage((s) => (lockReasonOf(s) === null ? null : (s.current?.pkg.status ?? null)));
  const managed = useSiteManaged((s) => s.managed !== null);
  const key = !signedIn
    ? nobody
      ? 'first-supervisor'
      : 'signin'
    : screen === 'package' && locked !== null
      ? `package-${locked}`
      : managed && (screen === 'workers' || screen === 'rules')
        ? `${screen}-managed`
        : screen;
  const hints = HINTS[key] ?? [];
  return (
    <footer className="station-footer" aria-label="Keyboard shortcuts" data-testid="key-legend">
      {hints.map(([key, what]) => (
        <span key={key} className="hint-key">
          <kbd>{key}</kbd> {what}
        </span>
      ))}
    </footer>
  );
}
