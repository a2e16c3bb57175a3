import { usePackage } from '../receiving/page-package.ts';
import { useSession } from '../session/session-store.ts';
import { notify } from '../state/feedback-store.ts';
import { useNav } from '../state/nav-store.ts';
import type { CommandBarcode } from './command-barcodes.ts';
import { back, receive, setConditionKey, splitUnit, toggleDefective, undo } from './commands.ts';

/** Runs a scanned command barcode with the same function its key calls (from the scan queue). */
export function runCommandBarcode(command: CommandBarcode): Promise<void> | void {
  switch (command.action) {
    case 'receive':
      // Already in the scan queue, whose earlier scans have landed: receive must not wait for it.
      return receive({ inScanQueue: true });
    case 'undo':
      return undo();
    case 'condition':
      return setConditionKey(command.conditionKey ?? '');
    case 'defective':
      return toggleDefective();
    case 'split':
      return splitUnit();
    case 'next':
      return nextItem();
    case 'back':
      return back();
    case 'sign-out':
      return signOut();
  }
}

/** Like ↓, said out loud: the worker without a screen in reach hears which item is selected. */
function nextItem(): void {
  const store = usePackage.getState();
  if (useNav.getState().screen !== 'package' || store.drafts.length === 0) return notify('warning', 'Scan an item first.');
  store.moveSelection(1);
  const after = usePackage.getState();
  const selected = after.drafts.find((d) => d.key === after.selectedKey);
  const name = after.current?.ret?.return_line_items.find((l) => l.id === selected?.return_line_item_id)?.name ?? selected?.barcode ?? 'item';
  notify('success', `Selected: ${name}`);
}

function signOut(): void {
  const operator = useSession.getState().operator;
  if (useNav.getState().screen === 'package') back();
  useSession.getState().signOut();
  notify('success', operator ? `Signed out: ${operator.name}. Scan your badge to sign in.` : 'Nobody was signed in.');
}
