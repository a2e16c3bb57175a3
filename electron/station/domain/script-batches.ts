import { Dexie } from 'dexie';
import { boundTables, type StationStore } from '../store/index.ts';
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
 */

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
    const [first] = batch;
    if (!first) return;
    const handOver = this.#handOver();
    if (batch.length === 1) {
      // Alone: the batch is its own write, its failure its own answer.
      const written = runScript(this.#ctx, (t, now) => first.script(t, now).finally(handOver));
      written.then(first.resolve, first.reject).finally(handOver);
      return;
    }
    let scriptFailed = false;
    const written = this.#ctx.store.write((tx) => {
      const t = boundTables(tx);
      const runAll = async () => {
        const results: unknown[] = [];
        for (const job of batch) {
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
        (results) => batch.forEach((job, i) => job.resolve(results[i])),
        (error: unknown) => {
          // Nothing of the batch was written: each script again on its own, in arrival order (the
          // engine runs writes in the order they are made), so the one that failed fails alone.
          if (scriptFailed) Dexie.ignoreTransaction(() => batch.forEach((job) => runScript(this.#ctx, job.script).then(job.resolve, job.reject)));
          else for (const job of batch) job.reject(error); // the write or its commit failed: as for every script it carried
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
      setImmediate(() => Dexie.ignoreTransaction(() => this.#next()));
    };
  }
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
