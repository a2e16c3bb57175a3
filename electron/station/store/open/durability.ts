import type { DatabaseSync } from 'node:sqlite';
import type { DBCore, Middleware } from 'dexie';
import { type CommitLoop, createCommitLoop } from '../durability/commit-loop.ts';
import type { Mutation, TransactionRecord } from '../durability/mutations.ts';
import { mutationWitness, recordingMiddleware } from '../durability/recording-middleware.ts';
import { createSqliteWriter } from '../durability/sqlite-writer.ts';
import { createWalSync, type WalSync } from '../durability/wal-sync.ts';
import type { ChangeLogEntry } from '../records.ts';
import { markUpgraded, type SchemaPlan } from './create.ts';

/** The write-through machinery, ready before the engine opens (an upgrade's writes go through it too). */
export interface Durability {
  loop: CommitLoop;
  /** The recording middleware and the mutation witness, which every engine of this store is opened with. */
  middlewares: ReadonlyArray<Middleware<DBCore>>;
  /** Engine transaction → its record: `write()` waits on the record's `durable`. */
  records: WeakMap<object, TransactionRecord>;
  /** Outermost Dexie transactions that sent a mutation down the stack (`mutationWitness`): each must have a record. */
  mutated: WeakSet<object>;
  /** Called with each commit's change-log entries once they are durable. */
  listeners: Set<(entries: ChangeLogEntry[]) => void>;
  /** Called with the tables a commit changed once it is durable (and its mutations), or a repair touched (caches forget them). */
  onTablesChanged: Set<(tables: ReadonlySet<string>, mutations?: readonly Mutation[]) => void>;
  /** The WAL's fsync: close it before the SQLite connection. */
  wal: WalSync;
}

export interface DurabilityOptions {
  beforeCommit?: () => void;
  beforeSync?: () => Promise<void>;
}

/** Starts the commit loop over `sqlite` (the connection to `file`) and the middleware that feeds it. */
export function startDurability(sqlite: DatabaseSync, file: string, plan: SchemaPlan, options: DurabilityOptions): Durability {
  const listeners = new Set<(entries: ChangeLogEntry[]) => void>();
  const onTablesChanged = new Set<(tables: ReadonlySet<string>, mutations?: readonly Mutation[]) => void>();
  const records = new WeakMap<object, TransactionRecord>();
  const mutated = new WeakSet<object>();
  const tablesChanged = (tables: ReadonlySet<string>, mutations?: readonly Mutation[]): void => {
    for (const listener of onTablesChanged) listener(tables, mutations);
  };
  const wal = createWalSync(file);
  const { beforeSync } = options;
  const loop = createCommitLoop({
    writer: createSqliteWriter(sqlite, plan.autoIncrement),
    sync: beforeSync ? () => beforeSync().then(() => wal.sync()) : () => wal.sync(),
    ...(options.beforeCommit ? { beforeCommit: options.beforeCommit } : {}),
    onUpgradeCommit: () => markUpgraded(sqlite, plan),
    onCommitted: (mutations) => {
      tablesChanged(new Set(mutations.map((m) => m.table)), mutations);
      notify(listeners, mutations);
    },
    onRepaired: (tables) => tablesChanged(tables),
  });
  const middlewares = [recordingMiddleware(loop, records), mutationWitness(mutated)];
  return { loop, middlewares, records, mutated, listeners, onTablesChanged, wal };
}

function notify(listeners: Set<(entries: ChangeLogEntry[]) => void>, mutations: readonly Mutation[]): void {
  if (listeners.size === 0) return;
  const entries: ChangeLogEntry[] = [];
  for (const mutation of mutations) {
    if (mutation.kind === 'put' && mutation.table === 'change_log') entries.push(JSON.parse(mutation.json) as ChangeLogEntry);
  }
  if (entries.length === 0) return;
  for (const listener of listeners) {
    try {
      listener(entries);
    } catch (error) {
      console.error('Returns station store: a change listener failed', error);
    }
  }
}
