import { useState, useSyncExternalStore } from 'react';
import { lockOf } from '../receiving/package-store.ts';
import { usePackage } from '../receiving/page-package.ts';
import { useSession } from '../session/session-store.ts';
import { useSiteManaged } from '../settings/site-managed.ts';
import { useNav } from '../state/nav-store.ts';
import { keyContextOf, legendOf } from '../workflow/key-table.ts';

/** A handheld in portrait, as the styles' one-column layout knows it (styles.css, max-width 700px). */
const HANDHELD = '(max-width: 700px)';
const handheldQuery = () => window.matchMedia(HANDHELD);
const subscribe = (changed: () => void) => {
  const query = handheldQuery();
  query.addEventListener('change', changed);
  return () => query.removeEventListener('change', changed);
};

/**
 * The keys of the current screen, always on screen, made from the keyboard table (workflow/key-table.ts)
 * the key handling acts through. A handheld has no F-keys: it shows what it can press (a scan) and a
 * Keys button for the rest (a handheld with a keyboard), so the screen's actions stay in view.
 */
export function ShortcutHints() {
  const screen = useNav((s) => s.screen);
  const signedIn = useSession((s) => s.operator !== null);
  const nobody = useSession((s) => s.operators.length === 0);
  const locked = usePackage(lockOf);
  const managed = useSiteManaged((s) => s.managed !== null);
  const handheld = useSyncExternalStore(subscribe, () => handheldQuery().matches);
  const [allKeys, setAllKeys] = useState(false);
  const legend = legendOf(keyContextOf({ signedIn, nobody, screen, locked, managed }));
  const shown = handheld && !allKeys ? legend.filter((entry) => entry.touch) : legend;
  return (
    <footer className="station-footer" aria-label="Keyboard shortcuts" data-testid="key-legend">
      {shown.map((entry) => (
        <span key={entry.keys} className="hint-key">
          <kbd>{entry.keys}</kbd> {entry.does}
        </span>
      ))}
      {handheld && (
        <button type="button" className="btn btn-small keys-toggle" aria-expanded={allKeys} data-testid="keys-toggle" onClick={() => setAllKeys(!allKeys)}>
          {allKeys ? 'Fewer keys' : 'Keys'}
        </button>
      )}
    </footer>
  );
}
