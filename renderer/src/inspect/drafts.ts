import { normaliseCode } from '#shared/barcode.ts';
import type { Condition, PackageLineItem } from '#shared/api/line-items.ts';
import type { Disposition, DispositionSource } from '#shared/dispositions.ts';
import type { ReturnLineItem, ReturnRecord } from '#shared/api/returns.ts';

/*
 * The inspection of one package as plain data: what the worker has recorded (drafts, one per return
 * line plus one per unexpected item) and what it means against the return. Pure functions only, so
 * every rule here is unit-tested; the store applies them and the line sync persists the result.
 */

/** One inspected item as the worker sees it; `key` is stable from the first scan on. */
export interface Draft {
  key: string;
  return_line_item_id: number | null;
  quantity: number;
  merchant_sku: string | null;
  name: string | null;
  condition: Condition | null;
  defective: boolean;
  notes: string | null;
  barcode: string | null;
  tags: string[];
  /** Where the unit goes next and its bin: the station's rules' answer (shown at once), or a person's override. */
  disposition: Disposition | null;
  bin: string | null;
  disposition_source: DispositionSource | null;
  /** The unit's id, from the station (printed on its label); null until the station gave one. */
  unit_id: string | null;
  /** The worker scanned the unit's bin. */
  put_confirmed: boolean;
  /** An override not yet confirmed by the station: who (operator id) and why. */
  override: { by: number | null; reason: string } | null;
  /** Who set the condition and who put the unit (operator ids); absent in drafts kept by an older UI. */
  condition_by?: number | null;
  put_by?: number | null;
  /** The unit's label was asked for (the station's `labelled_at`, or F5 here): the unit is no longer taken off with −. */
  labelled?: boolean;
  /** The unit's serial (scanned after the item when its SKU needs one); absent in drafts kept by an older UI. */
  serial?: string | null;
  /** The station's check of the serial (a duplicate, or not checked at the site yet); null until it answered. */
  serial_check?: SerialCheck | null;
}

/** What the station found of a unit's serial (the line item's `serial_check`). */
export type SerialCheck = NonNullable<PackageLineItem['serial_check']>;

export type ScanOutcome = { kind: 'line'; key: string; over: boolean } | { kind: 'unexpected'; key: string; isNew: boolean } | { kind: 'none' };

export function draftFromLineItem(item: PackageLineItem): Draft {
  return {
    key: `li-${item.id}`,
    return_line_item_id: item.return_line_item_id,
    quantity: item.quantity,
    merchant_sku: item.merchant_sku,
    name: item.name,
    condition: item.condition,
    defective: item.defective,
    notes: item.notes,
    barcode: item.barcode,
    tags: [...item.tags],
    disposition: item.disposition ?? null,
    bin: item.bin ?? null,
    disposition_source: item.disposition_source ?? null,
    unit_id: item.unit_id ?? null,
    put_confirmed: (item.put_confirmed_at ?? null) !== null,
    override: null,
    condition_by: item.condition_by ?? null,
    put_by: item.put_by ?? null,
    // Labelled on the station (F5 on any terminal, or receiving): known after a reload or a reopen too.
    labelled: (item.labelled_at ?? null) !== null,
    serial: item.serial ?? null,
    serial_check: item.serial_check ?? null,
  };
}

/** The return line a scanned item code stands for: its SKU, compared as the scanner normalises. */
export function matchReturnLine(ret: ReturnRecord | null, code: string): ReturnLineItem | null {
  if (!ret) return null;
  const wanted = normaliseCode(code);
  return ret.return_line_items.find((line) => normaliseCode(line.merchant_sku) === wanted) ?? null;
}

/** Units of the same item as `draft` on the package: its return line's, or (unexpected) its barcode's. */
export function unitsOfItem(drafts: readonly Draft[], draft: Draft): number {
  const same = (d: Draft) =>
    draft.return_line_item_id !== null ? d.return_line_item_id === draft.return_line_item_id : d.return_line_item_id === null && d.barcode === draft.barcode;
  return drafts.filter(same).reduce((sum, d) => sum + d.quantity, 0);
}

/** A draft already carrying this code as its barcode (a repeated unexpected or re-labelled item). */
export function matchDraftBarcode(drafts: readonly Draft[], code: string): Draft | null {
  const wanted = normaliseCode(code);
  return drafts.find((d) => d.barcode !== null && normaliseCode(d.barcode) === wanted) ?? null;
}

/** Units this package still may take for a return line before it is an over-receipt. */
export function openUnits(line: ReturnLineItem, drafts: readonly Draft[], alreadyCounted: boolean): number {
  const here = drafts.filter((d) => d.return_line_item_id === line.id).reduce((sum, d) => sum + d.quantity, 0);
  // Once this package is received its units are already inside `unreceived_quantity`.
  return alreadyCounted ? line.unreceived_quantity : line.unreceived_quantity - here;
}

/**
 * Adds one scanned unit, always as an item of its own (quantity 1, condition unset: nothing is
 * copied from a unit before it; docs/decisions/units.md). A return line's SKU is a unit of that line;
 * a code matching an item's barcode is another unit of that item; anything else is a new unexpected
 * item. Returns the new drafts and what happened, so the caller can choose colour and sound.
 */
export function applyItemScan(
  drafts: readonly Draft[],
  ret: ReturnRecord | null,
  code: string,
  newKey: () => string,
  alreadyCounted = false,
): { drafts: Draft[]; outcome: ScanOutcome } {
  const line = matchReturnLine(ret, code);
  if (line) {
    const over = openUnits(line, drafts, alreadyCounted) <= 0;
    const draft = emptyDraft(newKey(), line.id);
    return { drafts: [...drafts, draft], outcome: { kind: 'line', key: draft.key, over } };
  }
  const same = matchDraftBarcode(drafts, code);
  if (same) {
    const unit = unitLike(same, newKey());
    return {
      drafts: [...drafts, unit],
      outcome: same.return_line_item_id === null ? { kind: 'unexpected', key: unit.key, isNew: false } : { kind: 'line', key: unit.key, over: false },
    };
  }
  const normalised = normaliseCode(code);
  if (normalised === '') return { drafts: [...drafts], outcome: { kind: 'none' } };
  const draft: Draft = { ...emptyDraft(newKey(), null), name: `Unexpected item ${normalised}`, barcode: normalised, tags: ['unexpected'] };
  return { drafts: [...drafts, draft], outcome: { kind: 'unexpected', key: draft.key, isNew: true } };
}

export function emptyDraft(key: string, returnLineId: number | null): Draft {
  return {
    key,
    return_line_item_id: returnLineId,
    quantity: 1,
    merchant_sku: null,
    name: null,
    condition: null,
    defective: false,
    notes: null,
    barcode: null,
    tags: [],
    disposition: null,
    bin: null,
    disposition_source: null,
    unit_id: null,
    put_confirmed: false,
    override: null,
  };
}

/** The station's own tags (`disposition:`, `bin:`, `unit:`, `serial:`) and a correction's mark belong to one unit, never to another. */
const UNIT_OWN_TAG = /^(?:disposition|bin|unit|serial):|^corrected-by-/;

/** A new unit of the same item as `source`: same return line (or barcode, for an unexpected item), no condition yet. */
function unitLike(source: Draft, key: string): Draft {
  return {
    ...emptyDraft(key, source.return_line_item_id),
    merchant_sku: source.merchant_sku,
    name: source.name,
    barcode: source.barcode,
    tags: source.tags.filter((tag) => !UNIT_OWN_TAG.test(tag)),
  };
}

/** + : another unit of the selected item, right after it, condition unset. */
export function addUnit(drafts: readonly Draft[], key: string, newKey: string): Draft[] | null {
  const source = drafts.find((d) => d.key === key);
  if (!source) return null;
  const out: Draft[] = [];
  for (const d of drafts) {
    out.push(d);
    if (d === source) out.push(unitLike(source, newKey));
  }
  return out;
}

/** Why − may not take this unit off: its put was confirmed, or its label printed (a label names one unit). */
export type KeepReason = 'put' | 'labelled';

/**
 * − : takes the selected unit off, unless it was put or labelled (`received`: the package was
 * received, which printed every unit's label). An integrator's item of several units loses one,
 * unless it was put or labelled.
 */
export function removeUnit(drafts: readonly Draft[], key: string, received: boolean): { drafts: Draft[] } | { kept: KeepReason } | null {
  const unit = drafts.find((d) => d.key === key);
  if (!unit) return null;
  // A put or a label stands for the item's units as they are: the station refuses a change too (409).
  if (unit.put_confirmed) return { kept: 'put' };
  if (unit.labelled === true || (received && unit.unit_id !== null)) return { kept: 'labelled' };
  if (unit.quantity > 1) return { drafts: updateDraft(drafts, key, { quantity: unit.quantity - 1 }) };
  return { drafts: drafts.filter((d) => d !== unit) };
}

/**
 * Takes one unit off an item of several (an integrator's line, or one recorded before each unit was
 * its own) into an item of its own, for a unit in another condition. Null when the item has one unit.
 */
export function splitDraft(drafts: readonly Draft[], key: string, newKey: string): Draft[] | null {
  const source = drafts.find((d) => d.key === key);
  if (!source || source.quantity < 2) return null;
  const unit = unitLike(source, newKey);
  const out: Draft[] = [];
  for (const d of drafts) {
    if (d.key !== key) out.push(d);
    else out.push({ ...d, quantity: d.quantity - 1 }, unit);
  }
  return out;
}

/** Changes one draft; a quantity below 1 removes it (the API's quantity is at least 1). */
export function updateDraft(drafts: readonly Draft[], key: string, change: Partial<Omit<Draft, 'key'>>): Draft[] {
  const out: Draft[] = [];
  for (const d of drafts) {
    if (d.key !== key) out.push(d);
    else {
      const next = { ...d, ...change };
      if (next.quantity >= 1) out.push(next);
    }
  }
  return out;
}

/** A row of the package view: a return line with its figures side by side. */
export interface LineRow {
  line: ReturnLineItem;
  /** The line's first recorded item; `others` are units split off into other conditions. */
  draft: Draft | null;
  others: Draft[];
  expected: number;
  /** Received before, in other packages. */
  receivedBefore: number;
  /** Recorded in this package. */
  here: number;
  /** Still missing after this package: negative is an over-receipt. */
  remaining: number;
}

export function lineRows(ret: ReturnRecord | null, drafts: readonly Draft[], alreadyCounted = false): LineRow[] {
  if (!ret) return [];
  return ret.return_line_items.map((line) => {
    const mine = drafts.filter((d) => d.return_line_item_id === line.id);
    const here = mine.reduce((sum, d) => sum + d.quantity, 0);
    const unreceivedBefore = alreadyCounted ? Math.min(line.quantity, line.unreceived_quantity + here) : line.unreceived_quantity;
    return {
      line,
      draft: mine[0] ?? null,
      others: mine.slice(1),
      expected: line.quantity,
      receivedBefore: line.quantity - unreceivedBefore,
      here,
      remaining: unreceivedBefore - here,
    };
  });
}

/** Drafts that belong to no line of the return. */
export function unexpectedDrafts(ret: ReturnRecord | null, drafts: readonly Draft[]): Draft[] {
  const ids = new Set(ret?.return_line_items.map((l) => l.id) ?? []);
  return drafts.filter((d) => d.return_line_item_id === null || !ids.has(d.return_line_item_id));
}
