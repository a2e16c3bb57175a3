import type { ReturnRecord } from '#shared/api/returns.ts';
import { withoutDisposition } from '../inspect/disposition.ts';
import type { Draft } from '../inspect/drafts.ts';

/*
 * What a package lacks when the worker asks to receive it, for the one question receiving asks first
 * (workflow/commands.ts): nothing scanned, fewer units of a return line than are still to receive,
 * units with no condition, units not put in their bin. Units are counted as the sum of the drafts'
 * quantities per return line, so one draft of quantity N and N drafts of 1 count the same. A line
 * expects what is still unreceived (the return line's `unreceived_quantity`: a return sent in two
 * parcels expects in the second what the first did not bring), and nothing is short while another
 * parcel of the return is still to come: the rest may be in it.
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

export function receiveGaps(ret: Pick<ReturnRecord, 'return_line_items'> | null, drafts: readonly Draft[], moreParcels = false): ReceiveGaps {
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
  const short = moreParcels
    ? []
    : lines
        .map((l) => ({ name: l.name || l.merchant_sku, scanned: scannedByLine.get(l.id) ?? 0, expected: l.unreceived_quantity }))
        .filter((l) => l.scanned < l.expected);
  return {
    units,
    lineUnits: lines.reduce((sum, l) => sum + Math.min(scannedByLine.get(l.id) ?? 0, l.unreceived_quantity), 0),
    expectedUnits: lines.reduce((sum, l) => sum + l.unreceived_quantity, 0),
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

/** What receiving needs to know besides the return and the drafts. */
export interface ReceiveFacts {
  /** `accountId:packageId`: a question is confirmed only for the package it was asked about. */
  packageRef: string;
  trackingNumber: string;
  /** An exception package (lost, damaged, refused, …): received only inspected, and always asked. */
  exception: boolean;
  /** A correction of a receipt: no question (only the refusals). */
  correcting: boolean;
  /** The station's setting: units may be received with no condition. */
  allowUnsetConditions: boolean;
  /** Another parcel of the same return is still to come (not received, not cancelled). */
  moreParcels: boolean;
}

/**
 * What F2 meets: `refuse` (nothing is received; the worker must act first), `ask` (one question listing
 * what is missing; the same question confirmed by a second F2 receives, `key` says which question it
 * was), or null: receive at once. `key` carries the drafts as the worker sees them, so any change
 * between the two F2s (a unit scanned, a condition set) asks again.
 */
export type ReceiveQuestion = { kind: 'refuse'; message: string } | { kind: 'ask'; message: string; key: string } | null;

/** The drafts as the worker sees them: what a confirmation was given for. */
function seen(drafts: readonly Draft[]): string {
  return drafts.map((d) => [d.key, d.quantity, d.condition, d.bin, d.put_confirmed, d.disposition].join(',')).join(';');
}

export function receiveQuestion(ret: Pick<ReturnRecord, 'return_line_items'> | null, drafts: readonly Draft[], facts: ReceiveFacts): ReceiveQuestion {
  const tracking = facts.trackingNumber;
  if (facts.exception) {
    // An exception package is received only when every unit in it has been looked at and given a condition.
    if (drafts.every((d) => d.quantity === 0))
      return { kind: 'refuse', message: `${tracking} is an exception: scan what the parcel holds before receiving it.` };
    const unset = drafts.filter((d) => d.quantity > 0 && d.condition === null).length;
    if (unset > 0) return { kind: 'refuse', message: `${tracking} is an exception: set the condition of every item first (${unset} not set).` };
  }
  // Every unit leaves the bench with somewhere to go: the station refuses it too.
  const undecided = withoutDisposition(drafts).length;
  if (undecided > 0) {
    return {
      kind: 'refuse',
      message: `${undecided} item${undecided === 1 ? ' has' : 's have'} no disposition (no rule matches): override where ${undecided === 1 ? 'it goes' : 'they go'} (F10).`,
    };
  }
  if (facts.correcting) return null;
  const parts = missingParts(receiveGaps(ret, drafts, facts.moreParcels), facts.allowUnsetConditions);
  if (!facts.exception && parts.length === 0) return null;
  const key = `${facts.packageRef}|${parts.join('|')}|${seen(drafts)}`;
  const message = facts.exception
    ? `${tracking} is an exception${parts.length > 0 ? ` — ${parts.join('; ')}` : ''}. Press F2 again (or scan or tap Receive) to receive it as inspected.`
    : `Receive ${tracking} — ${parts.join('; ')}? Press F2 (or scan or tap Receive) again to receive it as it is.`;
  return { kind: 'ask', message, key };
}
