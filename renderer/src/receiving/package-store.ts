import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { Condition } from '#shared/api/line-items.ts';
import type { MediaFile } from '#shared/api/media.ts';
import type { ReturnPackage } from '#shared/api/return-packages.ts';
import type { ReturnRecord } from '#shared/api/returns.ts';
import { describeError } from '../api/describe-error.ts';
import { type Disposition, type DispositionRuleLike, sameBin } from '#shared/dispositions.ts';
import { applyRules, type DispositionFacts, knownBin, overridden, withRules } from '../inspect/disposition.ts';
import { addUnit, applyItemScan, type Draft, type KeepReason, lineRows, removeUnit, type ScanOutcome, splitDraft, updateDraft } from '../inspect/drafts.ts';
import type { SavedSerialCheck } from '../inspect/line-sync.ts';
import type { Upload, UploadQueue } from '../media/upload-queue.ts';
import type { PackageOutbox } from '../pending/package-outbox.ts';

/*
 * The package on the bench: its return, the worker's drafts, the undo history and the photos.
 * Every change is applied here at once and handed to the outbox (PackageOutbox, which keeps it in
 * IndexedDB until the station confirms it) and the upload queue, so the screen keeps pace with the
 * scanner whatever the network does. The store is made by `createPackageStore` from its parts
 * (opening, inspecting, photos, receiving), each given what it needs: no module-level client.
 */

type UndoEntry = { label: string; drafts: Draft[]; selectedKey: string | null } | { label: string; uploadId: string };

export interface OpenPackage {
  accountId: number;
  pkg: ReturnPackage;
  ret: ReturnRecord | null;
}

/** How F2 went: received on the station now, or pending (kept, sent when the station answers). */
export type ReceiveResult = { kind: 'received'; pkg: ReturnPackage; units: number } | { kind: 'pending'; units: number };

export interface PackageState {
  current: OpenPackage | null;
  drafts: Draft[];
  selectedKey: string | null;
  undoStack: UndoEntry[];
  uploads: readonly Upload[];
  receiving: boolean;
  /** The last refusal of the station for this package, shown until the next change. */
  error: string | null;
  /** Who is correcting the receipt of this received package ("Correct receipt", F7), or null. */
  correctingBy: { id: number; name: string } | null;
  /**
   * The selected unit as a condition key being held would make it (the key waits a moment for a
   * scanner's next character): its disposition shows at once; null when no key is held.
   */
  conditionPreview: Draft | null;
  open(work: OpenPackage): void;
  /** Opens a received package for an explicit, recorded correction by `operator`. */
  startCorrection(operator: { id: number; name: string }): void;
  close(): void;
  /**
   * The outbox moved on (its save state is the screen's, read from its entries): the open package's
   * new units learn the unit ids the station gave them.
   */
  outboxChanged(): void;
  scanItem(code: string): ScanOutcome;
  /** Moves one unit of the selected item into an item of its own (another condition); false when it has one unit. */
  splitUnit(): boolean;
  select(key: string): void;
  moveSelection(step: number): void;
  /** Sets the selected unit's condition, recorded as set by `by` (an operator id) when given. */
  setCondition(condition: Condition, by?: number | null): boolean;
  /** Shows (or with null, stops showing) the selected unit as `condition` would make it, changing nothing. */
  previewCondition(condition: Condition | null): void;
  toggleDefective(): boolean;
  /** + : another unit of the selected item (condition unset), selected; false when no item is selected. */
  addUnit(): boolean;
  /**
   * − : takes the selected unit off ('removed'; an item of several units loses one: 'fewer'), or
   * keeps it when it was put or its label printed; 'none' when nothing is selected.
   */
  removeUnit(): { kind: 'removed' | 'fewer' | 'none' } | { kind: 'kept'; reason: KeepReason };
  /** The unit's label was printed (F5): it is kept from then on. */
  markLabelled(key: string): void;
  /** Records the serial scanned for unit `key` (checked by the caller: inspect/serials.ts). */
  setSerial(key: string, serial: string): void;
  edit(key: string, change: Partial<Pick<Draft, 'notes' | 'tags' | 'barcode'>>): void;
  /** A person's override of the selected unit's disposition (who and why); false when no unit is selected. */
  overrideDisposition(disposition: Disposition, by: number | null, reason: string): boolean;
  /**
   * A scan of a bin while a unit is selected: 'put' (its bin: the put is recorded), 'already' (put
   * before), 'wrong' (another bin: nothing changes), or 'none' (not a bin this dock knows).
   */
  scanBin(code: string, by?: number | null): { kind: 'put' | 'already' | 'wrong' | 'none'; bin: string | null };
  addPhoto(blob: Blob, contentType?: string): void;
  undo(): string | null;
  /** Receives the package by `operatorId` (F2); rejects with the station's refusal. */
  receive(operatorId: number): Promise<ReceiveResult>;
  /** Follows the station's word on the open package: its status and fields, and units labelled or put elsewhere. */
  applyRemote(pkg: ReturnPackage): void;
  /** The station refused to take `unit` off the package (labelled or put elsewhere): it is back, selected. */
  unitKept(accountId: number, packageId: number, drafts: readonly Draft[], unit: Draft): void;
}

export interface PackageStoreDeps {
  outbox: PackageOutbox;
  uploads: UploadQueue;
  deleteMedia(accountId: number, packageId: number, mediaId: number): Promise<void>;
  newKey?: () => string;
  /** The station's disposition rules as this terminal knows them (none: no disposition shown until the station gives one). */
  dispositionRules?: () => readonly DispositionRuleLike[];
}

type Set = StoreApi<PackageState>['setState'];
type Get = StoreApi<PackageState>['getState'];
type Commit = (label: string, changed: Draft[], selectedKey: string | null) => void;

type Closed = Pick<PackageState, 'current' | 'drafts' | 'selectedKey' | 'undoStack' | 'error' | 'correctingBy' | 'receiving' | 'conditionPreview'>;
const closed = (): Closed => ({
  current: null,
  drafts: [],
  selectedKey: null,
  undoStack: [],
  error: null,
  correctingBy: null,
  receiving: false,
  conditionPreview: null,
});

export function createPackageStore(deps: PackageStoreDeps): UseBoundStore<StoreApi<PackageState>> {
  let nextKey = 0;
  const newKey = deps.newKey ?? (() => `d${Date.now().toString(36)}-${nextKey++}`);
  return create<PackageState>()((set, get) => {
    /** Applies new drafts, remembering the previous ones for undo, and hands them to the outbox. */
    const commit: Commit = (label, changed, selectedKey) => {
      const { current, drafts: before, selectedKey: beforeKey, undoStack, correctingBy } = get();
      if (!current) return;
      // Where each unit goes: the rules' answer at once, as the station will give it.
      const ruled = applyRules(changed, dispositionFacts(current, deps));
      // A correction of a received package is recorded on every item it changes: who (a tag) and
      // when (the item's updated_at).
      const drafts = correctingBy ? ruled.map((d) => (before.includes(d) ? d : withTag(d, `corrected-by-${correctingBy.id}`))) : ruled;
      set({
        drafts,
        selectedKey,
        undoStack: [...undoStack, { label, drafts: before, selectedKey: beforeKey }].slice(-200),
        error: null,
        conditionPreview: null,
      });
      deps.outbox.change(current.accountId, current.pkg.id, drafts);
    };
    return {
      ...closed(),
      uploads: [],
      ...openingPart(set, get, deps),
      ...inspectingPart(set, get, commit, newKey, deps),
      ...photoPart(set, get, deps),
      ...receivingPart(set, get, deps),
    };
  });
}

/** `drafts` with the unit ids the station gave them; the same array when none was new. */
function withUnitIds(drafts: Draft[], ids: ReadonlyMap<string, string>): Draft[] {
  if (!drafts.some((d) => d.unit_id === null && ids.has(d.key))) return drafts;
  return drafts.map((d) => (d.unit_id === null && ids.has(d.key) ? { ...d, unit_id: ids.get(d.key) ?? null } : d));
}

/** `drafts` with the station's checks of their serials (for the serial they were made for); the same array when none changed. */
function withSerialChecks(drafts: Draft[], checks: ReadonlyMap<string, SavedSerialCheck>): Draft[] {
  const learned = (d: Draft) => {
    const saved = checks.get(d.key);
    if (saved === undefined || saved.serial !== (d.serial ?? null)) return undefined;
    return JSON.stringify(saved.check) !== JSON.stringify(d.serial_check ?? null) ? saved.check : undefined;
  };
  if (!drafts.some((d) => learned(d) !== undefined)) return drafts;
  return drafts.map((d) => {
    const check = learned(d);
    return check === undefined ? d : { ...d, serial_check: check };
  });
}

/** Opening and leaving a package, and following what the station says about it. */
function openingPart(set: Set, get: Get, deps: PackageStoreDeps) {
  return {
    open(work: OpenPackage) {
      // Unsent drafts of this package (an earlier visit, a reload) win over the station's items,
      // except where the station holds a unit by its label or put.
      const opened = deps.outbox.open(work.accountId, work.pkg);
      const drafts = deps.outbox.learn(work.accountId, work.pkg) ?? opened;
      set({ ...closed(), current: work, drafts, selectedKey: drafts[0]?.key ?? null });
      get().outboxChanged();
    },
    close() {
      set(closed());
    },
    outboxChanged() {
      const current = get().current;
      if (!current) return;
      // New units learn the unit id the station gave them (F5 prints their label without a reopen), and its check of their serials.
      const ids = withUnitIds(get().drafts, deps.outbox.unitIdsOf(current.accountId, current.pkg.id));
      const drafts = withSerialChecks(ids, deps.outbox.serialChecksOf(current.accountId, current.pkg.id));
      if (drafts !== get().drafts) set({ drafts });
    },
    startCorrection(operator: { id: number; name: string }) {
      if (get().current?.pkg.status === 'received') set({ correctingBy: operator });
    },
    applyRemote(pkg: ReturnPackage) {
      const { current } = get();
      if (!current || current.pkg.id !== pkg.id) return;
      // Status and package fields follow the station; the drafts stay the worker's. While a photo
      // of ours is in flight the event may already list it: keep our media until the upload answers.
      const inFlight = deps.uploads.uploads.some((u) => u.packageId === pkg.id && u.state !== 'done' && u.state !== 'failed');
      const media_files = inFlight ? current.pkg.media_files : pkg.media_files;
      // A unit labelled or put on another terminal is held here at once (− then refuses it unsent).
      const learned = deps.outbox.learn(current.accountId, pkg);
      set({ current: { ...current, pkg: { ...pkg, line_items: current.pkg.line_items, media_files } }, ...(learned ? { drafts: learned } : {}) });
    },
    unitKept(accountId: number, packageId: number, drafts: readonly Draft[], unit: Draft) {
      const { current } = get();
      if (current?.accountId !== accountId || current.pkg.id !== packageId) return;
      set({ drafts: [...drafts], selectedKey: unit.key });
    },
  };
}

/** Scans, selection, conditions, quantities and notes: each change is one undoable commit. */
function inspectingPart(set: Set, get: Get, commit: Commit, newKey: () => string, deps: PackageStoreDeps) {
  const locked = () => lockReasonOf(get()) !== null;
  return {
    scanItem(code: string): ScanOutcome {
      const { current, drafts } = get();
      if (!current || locked()) return { kind: 'none' };
      const { drafts: next, outcome } = applyItemScan(drafts, current.ret, code, newKey, current.pkg.status === 'received');
      if (outcome.kind !== 'none') commit(`scan ${code}`, next, outcome.key);
      return outcome;
    },
    select(key: string) {
      set({ selectedKey: key });
    },
    moveSelection(step: number) {
      const { current, drafts, selectedKey } = get();
      // Selection runs over the rows as shown: return lines with a draft, then unexpected items.
      const keys = [
        ...lineRows(current?.ret ?? null, drafts).flatMap((r) => (r.draft ? [r.draft.key, ...r.others.map((d) => d.key)] : [])),
        ...drafts.filter((d) => d.return_line_item_id === null).map((d) => d.key),
      ];
      if (keys.length === 0) return;
      const at = selectedKey === null ? -1 : keys.indexOf(selectedKey);
      set({ selectedKey: keys[Math.max(0, Math.min(keys.length - 1, at + step))] ?? null });
    },
    setCondition(condition: Condition, by: number | null = null) {
      const { drafts, selectedKey } = get();
      if (selectedKey === null || locked()) return false;
      commit(`condition ${condition}`, updateDraft(drafts, selectedKey, { condition, condition_by: by }), selectedKey);
      return true;
    },
    previewCondition(condition: Condition | null) {
      const { current, drafts, selectedKey, conditionPreview } = get();
      const draft = drafts.find((d) => d.key === selectedKey);
      if (condition === null || !current || !draft || locked()) {
        if (conditionPreview !== null) set({ conditionPreview: null });
        return;
      }
      set({ conditionPreview: withRules({ ...draft, condition }, dispositionFacts(current, deps)) });
    },
    toggleDefective() {
      const { drafts, selectedKey } = get();
      const draft = drafts.find((d) => d.key === selectedKey);
      if (!draft || locked()) return false;
      commit('defective', updateDraft(drafts, draft.key, { defective: !draft.defective }), draft.key);
      return true;
    },
    splitUnit() {
      const { drafts, selectedKey } = get();
      const key = newKey();
      const next = selectedKey === null || locked() ? null : splitDraft(drafts, selectedKey, key);
      if (!next) return false;
      commit('split a unit', next, key);
      return true;
    },
    addUnit() {
      const { drafts, selectedKey } = get();
      const key = newKey();
      const next = selectedKey === null || locked() ? null : addUnit(drafts, selectedKey, key);
      if (!next) return false;
      commit('another unit', next, key);
      return true;
    },
    removeUnit() {
      const { current, drafts, selectedKey } = get();
      if (selectedKey === null || locked()) return { kind: 'none' as const };
      const outcome = removeUnit(drafts, selectedKey, current?.pkg.status === 'received');
      if (outcome === null) return { kind: 'none' as const };
      if ('kept' in outcome) return { kind: 'kept' as const, reason: outcome.kept };
      const at = drafts.findIndex((d) => d.key === selectedKey);
      const stays = outcome.drafts.some((d) => d.key === selectedKey);
      // The unit before the one taken off is selected next (else the first).
      const nextKey = stays ? selectedKey : (outcome.drafts[Math.max(0, at - 1)]?.key ?? null);
      commit(stays ? 'one unit less' : 'unit taken off', outcome.drafts, nextKey);
      return { kind: stays ? ('fewer' as const) : ('removed' as const) };
    },
    markLabelled(key: string) {
      const { current, drafts } = get();
      if (!current || !drafts.some((d) => d.key === key && d.labelled !== true)) return;
      // Not an undoable change of the inspection: a fact about paper, kept with the draft.
      const next = drafts.map((d) => (d.key === key ? { ...d, labelled: true } : d));
      set({ drafts: next });
      deps.outbox.change(current.accountId, current.pkg.id, next);
    },
    setSerial(key: string, serial: string) {
      if (locked()) return;
      commit(`serial ${serial}`, updateDraft(get().drafts, key, { serial, serial_check: null }), key);
    },
    edit(key: string, change: Partial<Pick<Draft, 'notes' | 'tags' | 'barcode'>>) {
      if (locked()) return;
      commit('edit', updateDraft(get().drafts, key, change), key);
    },
    overrideDisposition(disposition: Disposition, by: number | null, reason: string) {
      const { drafts, selectedKey } = get();
      const draft = drafts.find((d) => d.key === selectedKey);
      if (!draft || locked()) return false;
      const next = overridden(draft, disposition, deps.dispositionRules?.() ?? [], by, reason);
      commit(
        `disposition ${disposition}`,
        drafts.map((d) => (d.key === draft.key ? next : d)),
        draft.key,
      );
      return true;
    },
    scanBin(code: string, by: number | null = null) {
      const { drafts, selectedKey } = get();
      const draft = drafts.find((d) => d.key === selectedKey);
      if (!knownBin(code, deps.dispositionRules?.() ?? [], drafts)) return { kind: 'none' as const, bin: null };
      if (!draft || draft.bin === null || !sameBin(draft.bin, code)) return { kind: 'wrong' as const, bin: draft?.bin ?? null };
      if (draft.put_confirmed) return { kind: 'already' as const, bin: draft.bin };
      if (locked()) return { kind: 'none' as const, bin: null };
      commit(
        `put in ${draft.bin}`,
        drafts.map((d) => (d.key === draft.key ? { ...d, put_confirmed: true, put_by: by } : d)),
        draft.key,
      );
      return { kind: 'put' as const, bin: draft.bin };
    },
  };
}

/** Photos upload in the background; undo covers them like any other change. */
function photoPart(set: Set, get: Get, deps: PackageStoreDeps) {
  return {
    addPhoto(blob: Blob, contentType?: string) {
      const { current, undoStack } = get();
      if (!current || lockReasonOf(get()) !== null) return;
      const upload = deps.uploads.add(current.accountId, current.pkg.id, blob, contentType);
      set({ undoStack: [...undoStack, { label: 'photo', uploadId: upload.id }] });
    },
    undo() {
      const { undoStack, current } = get();
      const last = undoStack.at(-1);
      if (!last || !current) return null;
      set({ undoStack: undoStack.slice(0, -1), error: null });
      if ('uploadId' in last) {
        const removed = deps.uploads.remove(last.uploadId);
        if (removed?.media) void deps.deleteMedia(removed.accountId, removed.packageId, removed.media.id).catch(() => undefined);
        return 'photo removed';
      }
      // A label printed stays printed whatever is undone.
      const labelled = new Set(get().drafts.flatMap((d) => (d.labelled === true ? [d.key] : [])));
      const drafts = labelled.size === 0 ? last.drafts : last.drafts.map((d) => (labelled.has(d.key) && d.labelled !== true ? { ...d, labelled: true } : d));
      set({ drafts, selectedKey: last.selectedKey });
      deps.outbox.change(current.accountId, current.pkg.id, drafts);
      return last.label;
    },
  };
}

/** F2: the outbox sends the inspection, then the receive; the answer says received or pending. */
function receivingPart(set: Set, get: Get, deps: PackageStoreDeps) {
  return {
    async receive(operatorId: number): Promise<ReceiveResult> {
      const { current, drafts, correctingBy } = get();
      if (!current) throw new Error('No package is open.');
      const units = drafts.reduce((sum, d) => sum + d.quantity, 0);
      set({ receiving: true, error: null });
      try {
        const outcome = await deps.outbox.receive(current.accountId, current.pkg.id, { operatorId, correcting: correctingBy !== null, units });
        if (outcome.kind === 'received') {
          set({ receiving: false, current: { ...current, pkg: outcome.pkg }, undoStack: [] });
          return { kind: 'received', pkg: outcome.pkg, units };
        }
        set({ receiving: false });
        return { kind: 'pending', units };
      } catch (error) {
        set({ receiving: false, error: describeError(error) });
        throw error;
      }
    },
  };
}

/**
 * Why the open package takes no changes, or null. A cancelled package never does; a received one
 * only after an explicit "Correct receipt" (F7): a stray scan must not change what was received.
 * `receivedBy` names who received it, when known (received-by.ts).
 */
export function lockReasonOf(state: Pick<PackageState, 'current' | 'correctingBy'>, receivedBy: string | null = null): string | null {
  const pkg = state.current?.pkg;
  if (!pkg) return null;
  if (pkg.status === 'cancelled') return `${pkg.tracking_number} is cancelled: it takes no scans or changes. Scan the next parcel.`;
  if (pkg.status === 'received' && state.correctingBy === null) {
    const when = pkg.processed_at ? ` on ${pkg.processed_at.slice(0, 16).replace('T', ' ')}` : '';
    const by = receivedBy ? ` by ${receivedBy}` : '';
    return `${pkg.tracking_number} was already received${when}${by}: it takes no scans or changes. Press F7 to correct the receipt.`;
  }
  return null;
}

/** Which of the two locks of lockReasonOf the open package is under, or null when it takes changes. */
export function lockOf(state: Pick<PackageState, 'current' | 'correctingBy'>): 'received' | 'cancelled' | null {
  if (lockReasonOf(state) === null) return null;
  return state.current?.pkg.status === 'cancelled' ? 'cancelled' : 'received';
}

function withTag(draft: Draft, tag: string): Draft {
  return draft.tags.includes(tag) ? draft : { ...draft, tags: [...draft.tags, tag] };
}

/** Photos of the open package: stored ones and those still uploading, newest last. */
export function packagePhotos(pkg: ReturnPackage, uploads: readonly Upload[]): { key: string; stored: MediaFile | null; upload: Upload | null }[] {
  const mine = uploads.filter((u) => u.packageId === pkg.id);
  const uploadedIds = new Set(mine.flatMap((u) => (u.media ? [u.media.id] : [])));
  return [
    ...pkg.media_files.filter((m) => !uploadedIds.has(m.id)).map((m) => ({ key: `m${m.id}`, stored: m, upload: null })),
    ...mine.map((u) => ({ key: u.id, stored: u.media, upload: u })),
  ];
}

/** What the disposition rules read of the open package: its status, its return's reason, each item's SKU. */
function dispositionFacts(current: OpenPackage, deps: PackageStoreDeps): DispositionFacts {
  const lines = current.ret?.return_line_items ?? [];
  return {
    rules: deps.dispositionRules?.() ?? [],
    reasonOfReturn: current.ret?.reason_of_return ?? null,
    packageStatus: current.pkg.status,
    skuOf: (draft) => draft.merchant_sku ?? lines.find((l) => l.id === draft.return_line_item_id)?.merchant_sku ?? null,
  };
}
