import { normaliseCode } from '#shared/barcode.ts';

/*
 * Command barcodes: printed codes that do what a key does, so a worker with a handheld scanner and no
 * keyboard can do everything (as in Odoo's Barcode app). They run in the scan queue, in order with
 * the item scans around them (scan-router.ts; command-actions.ts runs them). Printed by the Commands
 * screen (CommandsScreen.tsx). This table imports nothing of the page, so the router stays testable.
 */

/** What a command barcode does: the action of the key named beside it. */
export type CommandAction = 'receive' | 'undo' | 'condition' | 'defective' | 'split' | 'next' | 'back' | 'sign-out';

export interface CommandBarcode {
  /** What the barcode encodes (normalised: upper case, no spaces). */
  code: string;
  label: string;
  /** The key that does the same. */
  key: string;
  action: CommandAction;
  /** For `condition`: its number key. */
  conditionKey?: string;
}

const PREFIX = 'RSCMD-';

const condition = (n: number, label: string): CommandBarcode => ({
  code: `${PREFIX}COND-${n}`,
  label: `Condition: ${label}`,
  key: String(n),
  action: 'condition',
  conditionKey: String(n),
});

export const COMMAND_BARCODES: readonly CommandBarcode[] = [
  { code: `${PREFIX}RECEIVE`, label: 'Receive package', key: 'F2', action: 'receive' },
  { code: `${PREFIX}UNDO`, label: 'Undo', key: 'F8', action: 'undo' },
  condition(1, 'New'),
  condition(2, 'Like new'),
  condition(3, 'Good'),
  condition(4, 'Fair'),
  condition(5, 'Damaged'),
  condition(6, 'Unsellable'),
  { code: `${PREFIX}DEFECTIVE`, label: 'Defective (on/off)', key: 'F3', action: 'defective' },
  { code: `${PREFIX}SPLIT`, label: 'Split a unit off', key: 'F6', action: 'split' },
  { code: `${PREFIX}NEXT`, label: 'Next item', key: '↓', action: 'next' },
  { code: `${PREFIX}BACK`, label: 'Back to scanning', key: 'Esc', action: 'back' },
  { code: `${PREFIX}SIGNOUT`, label: 'Sign out', key: '', action: 'sign-out' },
];

/** The command a scanned code is, or null when it is not a command barcode. */
export function commandBarcode(raw: string): CommandBarcode | null {
  const code = normaliseCode(raw);
  if (!code.startsWith(PREFIX)) return null;
  return COMMAND_BARCODES.find((c) => c.code === code) ?? null;
}

/** Whether `raw` is a command barcode (known or not): never an item, a parcel or text for a field. */
export function isCommandCode(raw: string): boolean {
  return normaliseCode(raw).startsWith(PREFIX);
}
