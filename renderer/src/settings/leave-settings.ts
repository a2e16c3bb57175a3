import { usePackage } from '../receiving/page-package.ts';
import { focusScan } from '../scan/scan-field.ts';
import { useNav } from '../state/nav-store.ts';

/** Back (Esc) from Settings to the screen it was opened from; to the scan screen when that package is no longer open. */
export function leaveSettings(): void {
  const from = useNav.getState().settingsFrom;
  useNav.getState().go(from === 'package' && usePackage.getState().current === null ? 'scan' : from);
  focusScan();
}
