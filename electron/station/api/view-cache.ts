import type { ChangedRecord, StationStore, StationTableName } from '../store/index.ts';

/*
 * The JSON text of single-record views (a package's G view, a return), kept between requests until
 * a commit changes a record they show (docs/decisions/view-cache.md). A hot get-one then costs a map
 * lookup instead of engine reads (each a structured clone), the view mapping and JSON.stringify.
 *
 * Each view names the records it was made from; a committed put or delete of one of them, a put of
 * a record that joins it (a new line item of the package), any change to a table every view reads
 * (carriers, locations), a range delete or a repair after a failed commit forgets it. The store
 * reports commits before any writer hears back, so nobody can have seen a change a view lacks. A
 * view read across a change is not kept (mark/remember), and nothing outlives the process.
 */

/** JSON text of a view of type T (JSON.stringify of it). */
export type JsonOf<T> = string & { readonly __viewOf?: T };

export function jsonOf<T>(view: T): JsonOf<T> {
  return JSON.stringify(view) as JsonOf<T>;
}

export type ViewKind = 'return_package' | 'return';

export interface CachedView<T> {
  accountId: number;
  /** The origin its URLs were made for (media capability URLs), null when it has none. */
  origin: string | null;
  json: JsonOf<T>;
}

/** A record a view was made from: a change to it forgets the view. */
export type ViewSource = readonly [table: StationTableName, key: number];

export interface ViewCache {
  get<T>(kind: ViewKind, id: number): CachedView<T> | undefined;
  /** Taken before reading the records of a view: `remember` keeps the view only if nothing changed since. */
  mark(): number;
  remember<T>(kind: ViewKind, id: number, view: CachedView<T>, sources: readonly ViewSource[], mark: number): void;
  /** Stops following the store's commits and forgets every view. */
  close(): void;
  readonly size: number;
  /** Estimated heap bytes of the remembered views. */
  readonly bytes: number;
}

/** Tables every package view reads a row of by a shared key: any change forgets every view. */
const SHARED: readonly StationTableName[] = ['carriers', 'locations'];

/** Tables whose records views are made from. */
const SOURCES: readonly StationTableName[] = ['return_packages', 'package_line_items', 'media_files', 'returns', ...SHARED];

interface Entry {
  kind: ViewKind;
  id: number;
  view: CachedView<unknown>;
  sources: string[];
  /** Its estimated heap bytes. */
  bytes: number;
}

/** Views remembered at most. */
export const DEFAULT_MAX_CACHED_VIEWS = 50_000;
/**
 * Memory the remembered views may take at most (their JSON and bookkeeping, estimated): the bound
 * that holds whatever a view's size. ≈ 13,000 views of a package with a few records.
 */
export const DEFAULT_MAX_CACHED_VIEW_BYTES = 16 * 1024 * 1024;

/** Estimated heap bytes of an entry besides its JSON text, and of each source it names (measured: ≈ 1.3 KB for a 600-character view of 3 records). */
const ENTRY_OVERHEAD_BYTES = 400;
const SOURCE_OVERHEAD_BYTES = 100;

const sourceKey = (table: string, key: unknown): string => `${table}:${String(key)}`;

/** The view a put record joins when it is a line item or media file: its package's. */
function joinedOwner(record: ChangedRecord): string | undefined {
  if (record.table !== 'package_line_items' && record.table !== 'media_files') return undefined;
  const owner = record.value()?.return_package_id;
  return owner === undefined ? undefined : sourceKey('return_packages', owner);
}

/**
 * A view cache following `store`'s commits, holding at most `maxEntries` views and `maxBytes` of
 * them (the oldest go first; a view larger than `maxBytes` alone is not kept).
 */
export function createViewCache(store: StationStore, maxEntries = DEFAULT_MAX_CACHED_VIEWS, maxBytes = DEFAULT_MAX_CACHED_VIEW_BYTES): ViewCache {
  /** Every entry by `kind:id`, oldest first. */
  const entries = new Map<string, Entry>();
  /** The same entries by id, one map per kind: a get builds no key. */
  const byId: Record<ViewKind, Map<number, Entry>> = { return_package: new Map(), return: new Map() };
  /** Source record → the entry made from it (a record shows in one view at most). */
  const usedBy = new Map<string, string>();
  let generation = 0;
  let bytes = 0;

  const forget = (entryKey: string | undefined): void => {
    const entry = entryKey === undefined ? undefined : entries.get(entryKey);
    if (!entry || entryKey === undefined) return;
    entries.delete(entryKey);
    bytes -= entry.bytes;
    byId[entry.kind].delete(entry.id);
    for (const source of entry.sources) if (usedBy.get(source) === entryKey) usedBy.delete(source);
  };
  const forgetAll = (): void => {
    entries.clear();
    bytes = 0;
    byId.return_package.clear();
    byId.return.clear();
    usedBy.clear();
  };

  const stop = store.onChange(SOURCES, (change) => {
    generation += 1;
    if (entries.size === 0) return;
    if (change.kind === 'any' || SHARED.some((table) => change.tables.has(table))) return forgetAll();
    for (const record of change.records) {
      forget(usedBy.get(sourceKey(record.table, record.key)));
      const owner = joinedOwner(record);
      if (owner) forget(usedBy.get(owner));
    }
  });

  return {
    get<T>(kind: ViewKind, id: number) {
      return byId[kind].get(id)?.view as CachedView<T> | undefined;
    },
    mark: () => generation,
    remember(kind, id, view, sources, mark) {
      if (mark !== generation) return;
      const entryKey = sourceKey(kind, id);
      forget(entryKey);
      const size = view.json.length + ENTRY_OVERHEAD_BYTES + SOURCE_OVERHEAD_BYTES * sources.length;
      if (size > maxBytes) return;
      while (entries.size > 0 && (entries.size >= maxEntries || bytes + size > maxBytes)) forget(entries.keys().next().value);
      const keys = sources.map(([table, key]) => sourceKey(table, key));
      const entry: Entry = { kind, id, view, sources: keys, bytes: size };
      bytes += size;
      entries.set(entryKey, entry);
      byId[kind].set(id, entry);
      for (const key of keys) {
        // A record moved to another view (a line item to another package): the old view is stale.
        const previous = usedBy.get(key);
        if (previous !== undefined && previous !== entryKey) forget(previous);
        usedBy.set(key, entryKey);
      }
    },
    close() {
      stop();
      forgetAll();
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}

/**
 * A get-one's answer through `views`: the remembered JSON when it was made for this account and
 * origin, else what `read()` made (the view's JSON and the records it was made from), remembered
 * unless a commit came in between (`mark`). `read` makes the JSON itself, so a view made from the
 * engine's own records (store/engine-reads.ts, `peek`) is text before anything else runs.
 */
export async function rememberedView<T>(
  views: ViewCache,
  kind: ViewKind,
  id: number,
  key: { accountId: number; origin: string | null },
  read: () => Promise<{ json: JsonOf<T>; sources: readonly ViewSource[] }>,
): Promise<{ json: JsonOf<T> }> {
  const cached = views.get<T>(kind, id);
  if (cached?.accountId === key.accountId && cached.origin === key.origin) return { json: cached.json };
  const mark = views.mark();
  const { json, sources } = await read();
  views.remember(kind, id, { ...key, json }, sources, mark);
  return { json };
}
