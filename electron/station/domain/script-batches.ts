import { isDeepStrictEqual } from 'node:util';
import { type BoundTables, ForeignAwaitInWriteError, outsideWrite, type StationStore } from '../store/index.ts';
import { type DomainContext, runScript, type Script } from './context.ts';

/*
 * Coalesced transaction scripts (docs/decisions/create-path.md, write coalescing). Every store write
 * is an engine transaction of its own, and what a transaction costs besides its requests (Dexie's
 * transaction and zone, fake-indexeddb's transaction, its scheduling among the waiting ones, its
 * completion, the write-through's record of it) was about a third of a create's store work. Scripts
 * that arrive while a batch runs in the engine wait for it to finish its scripts and then run, one
 * after another in arrival order, inside ONE write: the same reads and writes as one transaction
 * each, in the same order, made durable by the same commit before any of them is answered.
 *
 * A script that throws aborts its batch, so nothing of the batch is written; every script of it is
 * then run again in a write of its own (in arrival order, before the scripts that arrived later),
 * and each gets its own answer: the one that failed fails alone, the others are acknowledged once
 * durable. A batch of one is already its own write. A failed commit fails every script it carried, as the group commit does.
 *
 * Only for scripts that may run again after an abort without harm: they read and write through
 * their tables only (what they hand out of the transaction is taken from their last run).
 *
 * A script that breaks the store's rule (a foreign `await`: ForeignAwaitInWriteError) makes the engine
 * commit the batch's transaction early, so part of the batch is already written: its scripts are
 * then not run again (they would repeat that part); each fails with that error.
 *
 * With RETURNS_STATION_CHECK_WRITE_RULES=1 (the test runs: vitest.config.ts) every batch is first
 * rehearsed: its scripts run, at the same instants, in a write that is then rolled back, right before
 * the real one (nothing can write in between: the engine runs the two transactions back to back).
 * A script whose answer differs between the two runs touched something besides `t` (a counter,
 * its input, a write of its own…): it fails with CoalescedScriptNotRepeatableError, and whatever it
 * did outside `t` was done twice, for the tests to see. Off in production: nothing is rehearsed.
 */

/** See above; read once. */
const REHEARSE = process.env.RETURNS_STATION_CHECK_WRITE_RULES === '1';

/** A coalesced script answered differently when run twice on the same state: it touches more than `t`. */
export class CoalescedScriptNotRepeatableError extends Error {
  constructor(first: unknown, second: unknown) {
    super(
      `Write rule broken: a coalesced script answered differently when it ran again on the same state (first ${describe(first)}, then ${describe(second)}). A coalesced script may run twice and must read and write through \`t\` alone: no counters, no changes to its input, no writes or clocks of its own (docs/decisions/create-path.md, write coalescing).`,
    );
    this.name = 'CoalescedScriptNotRepeatableError';
  }
}

const describe = (outcome: unknown): string => {
  const text = JSON.stringify(outcome, (_key, value: unknown) => (value instanceof Error ? `${value.name}: ${value.message}` : value));
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

interface Job {
  script: Script<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Scripts waiting for the batch in the engine to finish, and whether one is there. */
class ScriptBatches {
  readonly #ctx: DomainContext;
  #waiting: Job[] = [];
  #inEngine = false;

  constructor(ctx: DomainContext) {
    this.#ctx = ctx;
  }

  run<T>(script: Script<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push({ script: script as Script<unknown>, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#inEngine) this.#next();
    });
  }

  /** Starts a write with every waiting script, if any. */
  #next(): void {
    const batch = this.#waiting;
    this.#waiting = [];
    this.#inEngine = batch.length > 0;
    if (batch.length === 0) return;
    const jobs = REHEARSE ? rehearse(this.#ctx, batch) : batch;
    const [first] = jobs;
    if (!first) return;
    const handOver = this.#handOver();
    if (batch.length === 1) {
      // Alone: the batch is its own write, its failure its own answer.
      const written = runScript(this.#ctx, (t, now) => first.script(t, now).finally(handOver));
      written.then(first.resolve, first.reject).finally(handOver);
      return;
    }
    let scriptFailed = false;
    const written = this.#ctx.store.write((t) => {
      const runAll = async () => {
        const results: unknown[] = [];
        for (const job of jobs) {
          try {
            results.push(await job.script(t, this.#ctx.clock.now()));
          } catch (error) {
            scriptFailed = true;
            throw error;
          }
        }
        return results;
      };
      // A failed batch hands over only once its scripts are queued again (below): they keep their place before later arrivals.
      return runAll().then((results) => {
        handOver();
        return results;
      });
    });
    written
      .then(
        (results) => jobs.forEach((job, i) => job.resolve(results[i])),
        (error: unknown) => {
          // Nothing of the batch was written: each script again on its own, in arrival order (the
          // engine runs writes in the order they are made), so the one that failed fails alone.
          // Not after a foreign await, which had part of the batch committed (see above).
          if (scriptFailed && !(error instanceof ForeignAwaitInWriteError)) {
            outsideWrite(() => jobs.forEach((job) => runScript(this.#ctx, job.script).then(job.resolve, job.reject)));
          } else for (const job of jobs) job.reject(error); // the write or its commit failed: as for every script it carried
        },
      )
      .finally(handOver);
  }

  /**
   * What a batch calls once its scripts are done (its transaction commits in memory next), or its
   * write ended without running them: the scripts that arrived meanwhile start the next write, which
   * the engine queues behind this one. Once per batch, on the next turn, outside this write's Dexie
   * zone (inside it, the next write would join this one).
   */
  #handOver(): () => void {
    let called = false;
    return () => {
      if (called) return;
      called = true;
      setImmediate(() => outsideWrite(() => this.#next()));
    };
  }
}

type Outcome = { value: unknown } | { error: unknown };

/**
 * Starts the rehearsal of `batch` (see above) and answers the jobs to run for real: each runs its
 * script at the rehearsal's instant, once the rehearsal has ended, and is answered only if its
 * first real run answered as the rehearsal did. The real write must be started next, in this turn.
 */
function rehearse(ctx: DomainContext, batch: Job[]): Job[] {
  const nows = batch.map(() => ctx.clock.now());
  const outcomes: Outcome[] = [];
  const runs = batch.map(() => 0);
  let rehearsed = false;
  let broken: unknown;
  const rolledBack = new Error('rehearsal rolled back');
  void ctx.store
    .write(async (t) => {
      for (const [i, job] of batch.entries()) {
        try {
          outcomes.push({ value: await job.script(t, nows[i] ?? '') });
        } catch (error) {
          outcomes.push({ error });
          break;
        }
      }
      rehearsed = true;
      throw rolledBack;
    })
    .catch((error: unknown) => {
      if (error !== rolledBack) broken = error;
    });
  // The real write's first request is answered once the engine has ended the rehearsal's transaction
  // (they are back to back); its scripts are done by then, unless a foreign await ended it early.
  const afterRehearsal = (t: BoundTables) =>
    t.accounts.get(0).then(() => {
      if (!rehearsed) throw new ForeignAwaitInWriteError(new Error('the rehearsal of a coalesced batch ended while its scripts ran'), 0);
      if (broken instanceof ForeignAwaitInWriteError) throw broken;
    });
  return batch.map((job, i) => ({
    script: (t, now) => {
      runs[i] = (runs[i] ?? 0) + 1;
      return afterRehearsal(t).then(() => job.script(t, nows[i] ?? now));
    },
    resolve: (value) => {
      const outcome = outcomes[i];
      // Compared on its first run only: a run again after a failed batch may follow other writes.
      if (runs[i] === 1 && outcome && !('value' in outcome && isDeepStrictEqual(outcome.value, value))) {
        job.reject(new CoalescedScriptNotRepeatableError(outcome, { value }));
      } else job.resolve(value);
    },
    reject: job.reject,
  }));
}

const batchesOf = new WeakMap<StationStore, ScriptBatches>();

/**
 * Runs a transaction script like `runScript` (it resolves once its write is durable), coalesced
 * with the scripts that arrive while another batch runs in the engine. For scripts that may run
 * twice: see above.
 */
export function runCoalescedScript<T>(ctx: DomainContext, script: Script<T>): Promise<T> {
  let batches = batchesOf.get(ctx.store);
  if (!batches) {
    batches = new ScriptBatches(ctx);
    batchesOf.set(ctx.store, batches);
  }
  return batches.run(script);
}
