import type { DBCore } from 'dexie';
import { CommitFailedError } from '../errors.ts';
import { type Mutation, mutationsOf, type TransactionRecord } from './mutations.ts';
import type { RecordingSink } from './recording-middleware.ts';
import { repairFromDisk } from './repair.ts';
import type { SqliteWriter } from './sqlite-writer.ts';

export interface CommitLoopOptions {
  writer: SqliteWriter;
  /** Makes every commit written so far durable (the WAL's fsync, off the event loop: wal-sync.ts). */
  sync: () => Promise<void>;
  /** Runs inside each SQLite transaction after its writes; throwing fails the commit (fault injection in tests). */
  beforeCommit?: () => void;
  /** Runs inside the commit of an upgrade transaction (moves the schema version on disk). */
  onUpgradeCommit?: () => void;
  /** Called after a successful commit with everything it made durable. */
  onCommitted?: (mutations: readonly Mutation[]) => void;
  /** Called after memory was repaired to the disk state, with the tables the repair touched. */
  onRepaired?: (tables: ReadonlySet<string>) => void;
}

/** How well commits group: the bench prints transactions per commit. */
export interface CommitStats {
  commits: number;
  transactions: number;
}

/**
 * How long the first transaction of a batch may wait for writes still running in the engine to
 * join its commit. Each SQLite commit costs event-loop time (its statements, and the WAL pages it
 * appends: a page written by several transactions of one batch is written once), so while writes
 * are queued in the engine it pays to let them finish first and share the commit.
 */
const MAX_GROUP_WAIT_MS = 8;
/** A batch this large commits without waiting for more. */
const MAX_GROUP_TRANSACTIONS = 256;
/**
 * Batches whose fsync may run at once. One at a time made the fsync's latency a cap on commits per
 * second (a busy disk took 15–20 ms per fsync while the process idled); libuv's pool has 4 threads.
 */
const MAX_SYNCS_IN_FLIGHT = 3;

export interface CommitLoop extends RecordingSink {
  /** Resolves when everything completed so far is durable (or failed and was repaired). */
  idle(): Promise<void>;
  /** Resolves once a repair after a failed commit has finished (immediately when none runs). */
  ready(): Promise<void>;
  /**
   * Resolves once every transaction completed so far is durable (or failed and was repaired), and
   * its commit reported. Unlike idle(), later transactions are not waited for: it returns under a
   * steady stream of writes.
   */
  committedSoFar(): Promise<void>;
  /** Read-write transactions that have mutated but not finished yet. */
  readonly active: number;
  /** Nothing is in flight: every mutation made in memory so far is durable. */
  readonly settled: boolean;
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
 * completed since the previous commit, writes it in ONE SQLite transaction (on the event loop, but
 * without an fsync), then makes it durable with one fsync of the WAL on a libuv thread (`sync`,
 * docs/decisions/wal-sync-off-loop.md), and only then settles all of them. While that fsync runs,
 * the engine keeps running writes, and what completes meanwhile forms the next batch.
 *
 * Why the loop also waits before a commit: fake-indexeddb runs transactions over the same tables
 * one after another, each over several event-loop turns, so right after one completes the next
 * ones are still in the engine. While store writes are queued or running there
 * (`writeEntered`/`writeLeft`), the loop yields turn after turn so they can complete and join, for
 * at most MAX_GROUP_WAIT_MS after the batch's first transaction. A lone writer finds nothing in the
 * engine and commits on the next turn, without delay.
 *
 * A failed commit (or fsync) rejects its transactions and repairs memory from disk (see repair.ts).
 * Transactions completing while the repair is under way were created before it and may have read
 * the failed state: they are rejected too and repaired in a further round. Transactions created
 * after the repair transaction are ordered after it by IndexedDB, so they see the disk state.
 */
export function createCommitLoop(options: CommitLoopOptions): CommitLoop {
  const state: LoopState = {
    core: undefined,
    pending: [],
    scheduled: false,
    syncing: 0,
    settling: Promise.resolve(),
    repairing: undefined,
    tainted: [],
    active: 0,
    writesInEngine: 0,
    batchStartedAt: 0,
    stats: { commits: 0, transactions: 0 },
    idleWaiters: [],
  };

  return {
    setCore(next) {
      state.core = next;
    },
    completed(record) {
      state.active = Math.max(0, state.active - 1);
      if (record.slots.length > 0) state.lastCompleted = record;
      if (record.slots.length === 0) {
        record.resolve();
      } else if (state.repairing) {
        state.tainted.push(record);
      } else {
        state.pending.push(record);
        schedule(state, options);
      }
      wakeIdle(state);
    },
    aborted(record) {
      state.active = Math.max(0, state.active - 1);
      record.resolve();
      wakeIdle(state);
    },
    started() {
      state.active += 1;
    },
    get active() {
      return state.active;
    },
    get core() {
      return state.core;
    },
    get settled() {
      return isIdle(state);
    },
    writeEntered() {
      state.writesInEngine += 1;
    },
    writeLeft() {
      state.writesInEngine = Math.max(0, state.writesInEngine - 1);
    },
    stats: state.stats,
    idle() {
      if (isIdle(state)) return Promise.resolve();
      return new Promise((resolve) => state.idleWaiters.push(resolve));
    },
    ready() {
      return state.repairing ?? Promise.resolve();
    },
    async committedSoFar() {
      // Batches settle in commit order, so the last completed transaction settles after every other.
      await state.lastCompleted?.durable.catch(() => undefined);
      await state.repairing;
    },
  };
}

/** The loop's state: what waits to be committed, what is being repaired, who waits for idle. */
interface LoopState {
  core: DBCore | undefined;
  /** Completed in memory, not yet durable. */
  pending: TransactionRecord[];
  /** A commit of `pending` is scheduled. */
  scheduled: boolean;
  /** Committed batches waiting for their fsync (at most MAX_SYNCS_IN_FLIGHT). */
  syncing: number;
  /** Settles after the latest committed batch was settled: batches settle in commit order. */
  settling: Promise<void>;
  /** A repair after a failed commit is under way. */
  repairing: Promise<void> | undefined;
  /** Completed during a repair: created before it, so they may have read the failed state. */
  tainted: TransactionRecord[];
  /** Read-write transactions that have mutated but not finished. */
  active: number;
  /** Store writes queued or running in the engine. */
  writesInEngine: number;
  batchStartedAt: number;
  stats: CommitStats;
  idleWaiters: Array<() => void>;
  /** The transaction with mutations that completed last (committedSoFar waits for it). */
  lastCompleted?: TransactionRecord;
}

const isIdle = (state: LoopState): boolean => state.active === 0 && state.pending.length === 0 && !state.scheduled && state.syncing === 0 && !state.repairing;

function wakeIdle(state: LoopState): void {
  if (!isIdle(state)) return;
  for (const wake of state.idleWaiters.splice(0)) wake();
}

/** Schedules a commit of what is pending, unless one is scheduled, enough are syncing, or a repair runs. */
function schedule(state: LoopState, options: CommitLoopOptions): void {
  if (state.scheduled || state.syncing >= MAX_SYNCS_IN_FLIGHT || state.repairing || state.pending.length === 0) return;
  state.scheduled = true;
  state.batchStartedAt = performance.now();
  const commitWhenGrouped = (): void => {
    if (moreAreComing(state)) setImmediate(commitWhenGrouped);
    else commitBatch(state, options);
  };
  setImmediate(commitWhenGrouped);
}

/** Writes still in the engine will soon complete: worth waiting a turn for them to join the batch. */
const moreAreComing = (state: LoopState): boolean =>
  state.writesInEngine > 0 && state.pending.length < MAX_GROUP_TRANSACTIONS && performance.now() - state.batchStartedAt < MAX_GROUP_WAIT_MS;

/** Commits everything pending in one SQLite transaction, makes it durable, then settles it. */
function commitBatch(state: LoopState, options: CommitLoopOptions): void {
  state.scheduled = false;
  const batch = state.pending;
  state.pending = [];
  const mutations = batch.flatMap(mutationsOf);
  const upgrade = batch.some((record) => record.upgrade);
  try {
    options.writer.commit(mutations, () => {
      if (upgrade) options.onUpgradeCommit?.();
      options.beforeCommit?.();
    });
  } catch (error) {
    failBatch(state, options, batch, error);
    return;
  }
  // Its fsync runs while the next batch forms and commits (and fsyncs: the file system groups
  // concurrent fsyncs). Each fsync covers everything written before it started; batches still
  // settle in commit order, so listeners hear of changes in the order they were made.
  state.syncing += 1;
  const synced = options.sync().then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  state.settling = Promise.all([state.settling, synced]).then(([, failed]) => {
    state.syncing -= 1;
    if (failed) {
      // Committed but maybe not on disk: nobody is told it is; memory keeps what SQLite holds.
      failBatch(state, options, batch, failed.error);
      return;
    }
    state.stats.commits += 1;
    state.stats.transactions += batch.length;
    for (const record of batch) record.resolve();
    options.onCommitted?.(mutations);
    schedule(state, options);
    wakeIdle(state);
  });
  schedule(state, options);
}

/** Rejects a batch whose commit failed and repairs memory from disk, round after round (see above). */
function failBatch(state: LoopState, options: CommitLoopOptions, batch: TransactionRecord[], error: unknown): void {
  const failure = new CommitFailedError(error);
  for (const record of batch) record.reject(failure);
  const round = async (mutations: Mutation[]): Promise<void> => {
    if (!state.core) throw new Error('Store engine is not open.');
    await repairFromDisk(state.core, options.writer, mutations);
    options.onRepaired?.(new Set(mutations.map((m) => m.table)));
    if (state.tainted.length > 0) {
      const next = state.tainted;
      state.tainted = [];
      for (const record of next) record.reject(failure);
      await round(next.flatMap(mutationsOf));
    }
  };
  state.repairing = round(batch.flatMap(mutationsOf))
    .catch((repairError: unknown) => {
      // Memory can no longer be trusted to match the disk; the store must be reopened.
      console.error('Returns station store: repair after a failed commit failed', repairError);
    })
    .finally(() => {
      state.repairing = undefined;
      schedule(state, options);
      wakeIdle(state);
    });
}
