import type { Mutation } from './durability/mutations.ts';
import type { RowOf } from './engine-reads.ts';
import type { Frozen } from './frozen.ts';
import type { KeyOf } from './read-tables.ts';
import type { StationTableName } from './schema.ts';

/*
 * The store's change events (`store.onChange`): what a commit changed of the tables a listener
 * follows, heard once the commit is durable and before any writer hears back, so a cache that
 * forgets what changed never answers something older than an acknowledged write.
 */

/** One record a commit put or deleted. */
export type ChangedRecord = {
  [K in StationTableName]: {
    readonly table: K;
    readonly key: KeyOf<K>;
    /** The record as the commit stored it (made anew at each call, the caller's own); undefined: deleted. */
    value(): Frozen<RowOf<K>> | undefined;
  };
}[StationTableName];

/** What one commit, or the repair after a failed one, changed of the tables a listener follows. */
export type StoreChange =
  /** A commit: each record of the followed tables it put or deleted, in the order it wrote them. */
  | { readonly kind: 'records'; readonly tables: ReadonlySet<StationTableName>; readonly records: readonly ChangedRecord[] }
  /** Any record of these tables may differ (a repair after a failed commit, a delete of a key range): forget them all. */
  | { readonly kind: 'any'; readonly tables: ReadonlySet<StationTableName> };

export type ChangeListener = (change: StoreChange) => void;

/** The durability layer's report of a commit (its mutations) or a repair (none). */
export type CommitReport = (tables: ReadonlySet<string>, mutations?: readonly Mutation[]) => void;

function changedRecord(mutation: Exclude<Mutation, { kind: 'deleteRange' }>): ChangedRecord {
  const value = mutation.kind === 'put' ? () => JSON.parse(mutation.json) as unknown : () => undefined;
  return { table: mutation.table, key: mutation.key, value } as ChangedRecord;
}

/** The commit report turned into `listener`'s change events, for the tables it follows only. */
export function changeEvents(tables: readonly StationTableName[], listener: ChangeListener): CommitReport {
  const followed: ReadonlySet<string> = new Set(tables);
  return (changed, mutations) => {
    let mine: Set<StationTableName> | undefined;
    for (const table of changed) if (followed.has(table)) (mine ??= new Set()).add(table as StationTableName);
    if (!mine) return;
    if (!mutations) return listener({ kind: 'any', tables: mine });
    const records: ChangedRecord[] = [];
    for (const mutation of mutations) {
      if (!followed.has(mutation.table)) continue;
      if (mutation.kind === 'deleteRange') return listener({ kind: 'any', tables: mine });
      records.push(changedRecord(mutation));
    }
    listener({ kind: 'records', tables: mine, records });
  };
}
