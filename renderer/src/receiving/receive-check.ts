import type { ReturnRecord } from '#shared/api/returns.ts';
import type { Draft } from '../inspect/drafts.ts';

/*
 * What a package lacks when the worker asks to receive it, for the one question receiving asks first
 * (workflow/commands.ts): nothing scanned, fewer units of a return line than it expects, units with no
 * condition, units not put in their bin. Units are counted as the sum of the drafts' quantities per
 * return line, so one draft of quantity N and N drafts of 1 count the same.
 */

export interface ReceiveGaps {
  /** Units scanned in all (return lines and unexpected items). */
  units: number;
  /** Units of the return's lines scanned, and expected. */
  lineUnits: number;
  expectedUnits: number;
  /** Return lines with fewer units scanned than expected: its name, scanned, expected. */
  short: Array<{ name: string; scanned: number; expected: number }>;
  /** Units whose condition is not set. */
  unsetConditions: number;
  /** Units with a bin whose put was not confirmed (the bin's barcode not scanned). */
  unputUnits: number;
}

export function receiveGaps(ret: Pick<ReturnRecord, 'return_line_items'> | null, drafts: readonly Draft[]): ReceiveGaps {
  const scannedByLine = new Map<number, number>();
  let units = 0;
  let unsetConditions = 0;
  let unputUnits = 0;
  for (const d of drafts) {
    units += d.quantity;
    if (d.return_line_item_id !== null) scannedByLine.set(d.return_line_item_id, (scannedByLine.get(d.return_line_item_id) ?? 0) + d.quantity);
    if (d.condition === null) unsetConditions += d.quantity;
    if (d.bin !== null && !d.put_confirmed) unputUnits += d.quantity;
  }
  const lines = ret?.return_line_items ?? [];
  const short = lines
    .map((l) => ({ name: l.name || l.merchant_sku, scanned: scannedByLine.get(l.id) ?? 0, expected: l.quantity }))
    .filter((l) => l.scanned < l.expected);
  return {
    units,
    lineUnits: lines.reduce((sum, l) => sum + Math.min(scannedByLine.get(l.id) ?? 0, l.quantity), 0),
    expectedUnits: lines.reduce((sum, l) => sum + l.quantity, 0),
    short,
    unsetConditions,
    unputUnits,
  };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What is missing, in words, one part each (empty: nothing to ask). `allowUnsetConditions` (the
 * station's setting) drops the condition part only: a package with nothing scanned is always asked about.
 */
export function missingParts(gaps: ReceiveGaps, allowUnsetConditions: boolean): string[] {
  if (gaps.units === 0) return ['nothing scanned'];
  const parts: string[] = [];
  if (gaps.short.length > 0) {
    const lines = gaps.short.slice(0, 3).map((l) => `${l.name} ${l.scanned} of ${l.expected}`);
    if (gaps.short.length > 3) lines.push(`${gaps.short.length - 3} more line${gaps.short.length - 3 === 1 ? '' : 's'}`);
    parts.push(`${gaps.lineUnits} of ${gaps.expectedUnits} units scanned (${lines.join(', ')})`);
  }
  if (gaps.unsetConditions > 0 && !allowUnsetConditions) parts.push(`${plural(gaps.unsetConditions, 'unit', 'units')} with no condition`);
  if (gaps.unputUnits > 0) parts.push(gaps.unputUnits === 1 ? '1 unit not put in its bin' : `${gaps.unputUnits} units not put in their bins`);
  return parts;
}
