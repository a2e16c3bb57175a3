import type { DBCore } from 'dexie';
import { CommitFailedError } from '../errors.ts';
import { type Mutation, mutationsOf, type TransactionRecord } from './mutations.ts';
import type { RecordingSink } from './recording-middleware.ts';
import { repairFromDisk } from './repair.ts';
import type { SqliteWriter } from './sqlite-writer.ts';

export interface CommitLoopOptions {
  writer: SqliteWriter;
  /** Runs inside each SQLite transaction after its writes; throwing fails the commit (fault injection in tests). */
  beforeCommit?: () => void;
  /** Runs inside the commit of an upgrade transaction (moves the schema version on disk). */
  onUpgradeCommit?: () => void;
  /** Called after a successful commit with everything it made durable. */
  onCommitted?: (mutations: readonly Mutation[]) => void;
}

/** How well commits group: the bench prints transactions per commit. */
export interface CommitStats {
  commits: number;
  transactions: number;
}

/**
 * How long the first transaction of a batch may wait for writes still running in the engine to
 * join its commit. A commit blocks the event loop (node:sqlite is synchronous, and with an fsync
 * it costs more than a small write's engine work), so while writes are queued in the engine it
 * pays to let them finish first and share the commit.
 */
const MAX_GROUP_WAIT_MS = 8;
/** A batch this large commits without waiting for more. */
const MAX_GROUP_TRANSACTIONS = 256;

export interface CommitLoop extends RecordingSink {
  /** Resolves when everything completed so far is durable (or failed and was repaired). */
  idle(): Promise<void>;
  /** Resolves once a repair after a failed commit has finished (immediately when none runs). */
  ready(): Promise<void>;
  /** Read-write transactions that have mutated but not finished yet. */
  readonly active: number;
  /** The engine's core below the recording middleware (for loading), once Dexie has opened. */
  readonly core: DBCore | undefined;
  /** A store write is queued or running in the engine: its transaction will complete soon. */
  writeEntered(): void;
  /** That write's engine transaction has committed in memory or aborted. */
  writeLeft(): void;
  readonly stats: Readonly<CommitStats>;
}

/**
 * Group commit. Each completed transaction joins `pending`; the loop takes everything that
 * completed since the previous commit and writes it in ONE SQLite transaction, then settles all
 * of them.
 *
 * Why the loop waits: SQLite calls are synchronous, so nothing runs in the engine while a commit
 * is under way, and fake-indexeddb runs transactions over the same tables one after another, each
 * over several event-loop turns. Committing as soon as one transaction completed therefore gave
 * one transaction per commit with 32 writers. Instead, while store writes are still queued or
 * running in the engine (`writeEntered`/`writeLeft`), the loop yields turn after turn so they can
 * complete and join, for at most MAX_GROUP_WAIT_MS after the batch's first transaction. A lone
 * writer finds nothing in the engine and commits on the next turn, without delay.
 *
 * A failed commit rejects its transactions and repairs memory from disk (see repair.ts).
 * Transactions completing while the repair is under way were created before it and may have read
 * the failed state: they are rejected too and repaired in a further round. Transactions created
 * after the repair transaction are ordered after it by IndexedDB, so they see the disk state.
 */
export function createCommitLoop(options: CommitLoopOptions): CommitLoop {
  let core: DBCore | undefined;
  let pending: TransactionRecord[] = [];
  let scheduled = false;
  let repairing: Promise<void> | undefined;
  let tainted: TransactionRecord[] = [];
  let active = 0;
  let writesInEngine = 0;
  let batchStartedAt = 0;
  const stats: CommitStats = { commits: 0, transactions: 0 };
  const idleWaiters: Array<() => void> = [];

  const isIdle = (): boolean => active === 0 && pending.length === 0 && !scheduled && !repairing;
  const wakeIdle = (): void => {
    if (!isIdle()) return;
    for (const wake of idleWaiters.splice(0)) wake();
  };

  const schedule = (): void => {
    if (scheduled || repairing || pending.length === 0) return;
    scheduled = true;
    batchStartedAt = performance.now();
    setImmediate(commitWhenGrouped);
  };

  const moreAreComing = (): boolean =>
    writesInEngine > 0 && pending.length < MAX_GROUP_TRANSACTIONS && performance.now() - batchStartedAt < MAX_GROUP_WAIT_MS;

  const commitWhenGrouped = (): void => {
    if (moreAreComing()) {
      setImmediate(commitWhenGrouped);
      return;
    }
    commitPending();
  };

  const commitPending = (): void => {
    scheduled = false;
    const batch = pending;
    pending = [];
    const mutations = batch.flatMap(mutationsOf);
    const upgrade = batch.some((record) => record.upgrade);
    try {
      options.writer.commit(mutations, () => {
        if (upgrade) options.onUpgradeCommit?.();
        options.beforeCommit?.();
      });
    } catch (error) {
      fail(batch, error);
      return;
    }
    stats.commits += 1;
    stats.transactions += batch.length;
    for (const record of batch) record.resolve();
    options.onCommitted?.(mutations);
    schedule();
    wakeIdle();
  };

  const fail = (batch: TransactionRecord[], error: unknown): void => {
    const failure = new CommitFailedError(error);
    for (const record of batch) record.reject(failure);
    const round = async (mutations: Mutation[]): Promise<void> => {
      if (!core) throw new Error('Store engine is not open.');
      await repairFromDisk(core, options.writer, mutations);
      if (tainted.length > 0) {
        const next = tainted;
        tainted = [];
        for (const record of next) record.reject(failure);
        await round(next.flatMap(mutationsOf));
      }
    };
    repairing = round(batch.flatMap(mutationsOf))
      .catch((repairError: unknown) => {
        // Memory can no longer be trusted to match the disk; the store must be reopened.
        console.error('Returns station store: repair after a failed commit failed', repairError);
      })
      .finally(() => {
        repairing = undefined;
        schedule();
        wakeIdle();
      });
  };

  return {
    setCore(next) {
      core = next;
    },
    completed(record) {
      active = Math.max(0, active - 1);
      if (record.slots.length === 0) {
        record.resolve();
      } else if (repairing) {
        tainted.push(record);
      } else {
        pending.push(record);
        schedule();
      }
      wakeIdle();
    },
    aborted(record) {
      active = Math.max(0, active - 1);
      record.resolve();
      wakeIdle();
    },
    started() {
      active += 1;
    },
    get active() {
      return active;
    },
    get core() {
      return core;
    },
    writeEntered() {
      writesInEngine += 1;
    },
    writeLeft() {
      writesInEngine = Math.max(0, writesInEngine - 1);
    },
    stats,
    idle() {
      if (isIdle()) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    ready() {
      return repairing ?? Promise.resolve();
    },
  };
}
