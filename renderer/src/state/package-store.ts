import { create } from 'zustand';
import type { Condition } from '#shared/api/line-items.ts';
import type { MediaFile } from '#shared/api/media.ts';
import type { ReturnPackage } from '#shared/api/return-packages.ts';
import type { ReturnRecord } from '#shared/api/returns.ts';
import { describeError } from '../api/describe-error.ts';
import { api } from '../api/station-api.ts';
import { applyItemScan, type Draft, draftFromLineItem, lineRows, type ScanOutcome, splitDraft, updateDraft } from '../inspect/drafts.ts';
import { LineSync, type SyncState } from '../inspect/line-sync.ts';
import { type Upload, UploadQueue } from '../media/upload-queue.ts';

/*
 * The package on the bench: its return, the worker's drafts, the undo history and the photos.
 * Every change is applied here at once and persisted in the background (LineSync, UploadQueue), so
 * the screen keeps pace with the scanner whatever the network does.
 */

type UndoEntry = { label: string; drafts: Draft[]; selectedKey: string | null } | { label: string; uploadId: string };

export interface OpenPackage {
  accountId: number;
  pkg: ReturnPackage;
  ret: ReturnRecord | null;
}

interface PackageState {
  current: OpenPackage | null;
  drafts: Draft[];
  selectedKey: string | null;
  undoStack: UndoEntry[];
  sync: SyncState;
  syncError: string | null;
  uploads: readonly Upload[];
  receiving: boolean;
  /** The last refusal of the station for this package, shown until the next change. */
  error: string | null;
  /** Who is correcting the receipt of this received package ("Correct receipt", F7), or null. */
  correctingBy: { id: number; name: string } | null;
  /** Set by a first F2 on an exception package: the next F2 receives it. */
  exceptionConfirmed: boolean;
  open(work: OpenPackage): void;
  /** Opens a received package for an explicit, recorded correction by `operator`. */
  startCorrection(operator: { id: number; name: string }): void;
  confirmException(): void;
  close(): void;
  scanItem(code: string): ScanOutcome;
  /** Moves one unit of the selected item into an item of its own (another condition); false when it has one unit. */
  splitUnit(): boolean;
  select(key: string): void;
  moveSelection(step: number): void;
  setCondition(condition: Condition): boolean;
  toggleDefective(): boolean;
  changeQuantity(key: string, delta: number): void;
  edit(key: string, change: Partial<Pick<Draft, 'notes' | 'tags' | 'barcode'>>): void;
  addPhoto(blob: Blob, contentType?: string): void;
  undo(): string | null;
  /** Marks the package received by `operatorId`; resolves to the received package or throws. */
  receive(operatorId: number): Promise<ReturnPackage>;
  applyRemote(pkg: ReturnPackage): void;
}

let lineSync: LineSync | null = null;
const uploadQueue = new UploadQueue({
  api: { uploadMedia: (...args) => api().uploadMedia(...args) },
  onChange: (uploads) => usePackage.setState({ uploads }),
});

let nextKey = 0;
const newKey = () => `d${Date.now().toString(36)}-${nextKey++}`;

export const usePackage = create<PackageState>()((set, get) => {
  /** Applies new drafts, remembering the previous ones for undo, and hands them to the sync. */
  const commit = (label: string, changed: Draft[], selectedKey: string | null) => {
    const { drafts: before, selectedKey: beforeKey, undoStack, correctingBy } = get();
    // A correction of a received package is recorded on every item it changes: who (a tag) and
    // when (the item's updated_at).
    const drafts = correctingBy ? changed.map((d) => (before.includes(d) ? d : withTag(d, `corrected-by-${correctingBy.id}`))) : changed;
    set({ drafts, selectedKey, undoStack: [...undoStack, { label, drafts: before, selectedKey: beforeKey }].slice(-200), error: null });
    lineSync?.set(drafts);
  };
  const locked = () => lockReasonOf(get()) !== null;

  return {
    current: null,
    drafts: [],
    selectedKey: null,
    undoStack: [],
    sync: 'saved',
    syncError: null,
    uploads: [],
    receiving: false,
    error: null,
    correctingBy: null,
    exceptionConfirmed: false,

    startCorrection(operator) {
      if (get().current?.pkg.status === 'received') set({ correctingBy: operator });
    },

    confirmException() {
      set({ exceptionConfirmed: true });
    },

    open(work) {
      // The previous package's sync keeps running until its last change has landed.
      const drafts = work.pkg.line_items.map(draftFromLineItem);
      lineSync = new LineSync(
        { createLineItem: (...a) => api().createLineItem(...a), updateLineItem: (...a) => api().updateLineItem(...a), deleteLineItem: (...a) => api().deleteLineItem(...a) },
        work.accountId,
        work.pkg.id,
        work.pkg.line_items,
        drafts,
        {
          onState: (state, error) => {
            if (lineSync === syncOfThis) set({ sync: state, syncError: error === null ? null : describeError(error) });
          },
        },
      );
      const syncOfThis = lineSync;
      set({ current: work, drafts, selectedKey: drafts[0]?.key ?? null, undoStack: [], sync: 'saved', syncError: null, receiving: false, error: null, correctingBy: null, exceptionConfirmed: false });
    },

    close() {
      set({ current: null, drafts: [], selectedKey: null, undoStack: [], error: null, correctingBy: null, exceptionConfirmed: false });
    },

    scanItem(code) {
      const { current, drafts } = get();
      if (!current || locked()) return { kind: 'none' };
      const { drafts: next, outcome } = applyItemScan(drafts, current.ret, code, newKey, current.pkg.status === 'received', get().selectedKey);
      if (outcome.kind !== 'none') commit(`scan ${code}`, next, outcome.key);
      return outcome;
    },

    select(key) {
      set({ selectedKey: key });
    },

    moveSelection(step) {
      const { current, drafts, selectedKey } = get();
      // Selection runs over the rows as shown: return lines with a draft, then unexpected items.
      const keys = [...lineRows(current?.ret ?? null, drafts).flatMap((r) => (r.draft ? [r.draft.key] : [])), ...drafts.filter((d) => d.return_line_item_id === null).map((d) => d.key)];
      if (keys.length === 0) return;
      const at = selectedKey === null ? -1 : keys.indexOf(selectedKey);
      const next = keys[Math.max(0, Math.min(keys.length - 1, at + step))] ?? null;
      set({ selectedKey: next });
    },

    setCondition(condition) {
      const { drafts, selectedKey } = get();
      if (selectedKey === null || locked()) return false;
      commit(`condition ${condition}`, updateDraft(drafts, selectedKey, { condition }), selectedKey);
      return true;
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

    changeQuantity(key, delta) {
      const { drafts } = get();
      const draft = drafts.find((d) => d.key === key);
      if (!draft || locked()) return;
      const next = updateDraft(drafts, key, { quantity: draft.quantity + delta });
      commit(`quantity ${delta > 0 ? '+' : ''}${delta}`, next, next.some((d) => d.key === key) ? key : (next.at(-1)?.key ?? null));
    },

    edit(key, change) {
      const { drafts } = get();
      if (locked()) return;
      commit('edit', updateDraft(drafts, key, change), key);
    },

    addPhoto(blob, contentType) {
      const { current, undoStack } = get();
      if (!current || locked()) return;
      const upload = uploadQueue.add(current.accountId, current.pkg.id, blob, contentType);
      set({ undoStack: [...undoStack, { label: 'photo', uploadId: upload.id }] });
    },

    undo() {
      const { undoStack } = get();
      const last = undoStack.at(-1);
      if (!last) return null;
      set({ undoStack: undoStack.slice(0, -1), error: null });
      if ('uploadId' in last) {
        const removed = uploadQueue.remove(last.uploadId);
        const current = get().current;
        if (removed?.media && current) void api().deleteMedia(removed.accountId, removed.packageId, removed.media.id).catch(() => undefined);
        return 'photo removed';
      }
      set({ drafts: last.drafts, selectedKey: last.selectedKey });
      lineSync?.set(last.drafts);
      return last.label;
    },

    async receive(operatorId) {
      const { current } = get();
      if (!current || !lineSync) throw new Error('No package is open.');
      set({ receiving: true, error: null });
      try {
        // Everything inspected must be on the station before the package counts as received.
        await lineSync.flush();
        // A correction keeps who received the package and when; the changed items say who corrected them.
        if (current.pkg.status !== 'received') await api().updatePackage(current.accountId, current.pkg.id, { status: 'received', processor_id: operatorId });
        const received = await api().getPackage(current.accountId, current.pkg.id);
        set({ receiving: false, current: { ...current, pkg: received }, undoStack: [] });
        return received;
      } catch (error) {
        set({ receiving: false, error: describeError(error) });
        throw error;
      }
    },

    applyRemote(pkg) {
      const { current } = get();
      if (!current || current.pkg.id !== pkg.id) return;
      // Status and package fields follow the station; the drafts stay the worker's. While a photo
      // of ours is in flight the event may already list it: keep our media until the upload answers.
      const inFlight = uploadQueue.uploads.some((u) => u.packageId === pkg.id && u.state !== 'done' && u.state !== 'failed');
      const media_files = inFlight ? current.pkg.media_files : pkg.media_files;
      set({ current: { ...current, pkg: { ...pkg, line_items: current.pkg.line_items, media_files } } });
    },
  };
});

/**
 * Why the open package takes no changes, or null. A cancelled package never does; a received one
 * only after an explicit "Correct receipt" (F7): a stray scan must not change what was received.
 */
export function lockReasonOf(state: Pick<PackageState, 'current' | 'correctingBy'>): string | null {
  const pkg = state.current?.pkg;
  if (!pkg) return null;
  if (pkg.status === 'cancelled') return `${pkg.tracking_number} is cancelled: nothing is recorded on it. Scan the next parcel.`;
  if (pkg.status === 'received' && state.correctingBy === null) {
    const when = pkg.processed_at ? ` on ${pkg.processed_at.slice(0, 16).replace('T', ' ')}` : '';
    return `${pkg.tracking_number} was already received${when}: nothing was recorded. Press F7 to correct the receipt.`;
  }
  return null;
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

export const uploads = uploadQueue;
