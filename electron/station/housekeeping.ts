import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './domain/clock.ts';
import { pruneDonePrintJobs } from './domain/print-jobs.ts';
import { pruneExpired } from './domain/retention.ts';
import { pruneExpiredTokens } from './domain/tokens.ts';
import type { StationStore } from './store/index.ts';

const HOUR = 60 * 60 * 1000;

export interface Housekeeping {
  /** One round now; never rejects. Resolves true when it succeeded. */
  runOnce(): Promise<boolean>;
  stop(): void;
}

/**
 * Housekeeping (pruning expired idempotency keys and old change-log entries, collecting media bytes
 * no record names) runs at start and every hour. It must never stop the station from opening or serving: a failure is logged once, clearly,
 * repeated failures only at debug level until a round succeeds again, and the station carries on.
 */
export function startHousekeeping(store: StationStore, clock: Clock, log: FastifyBaseLogger): Housekeeping {
  let failing = false;
  const runOnce = async (): Promise<boolean> => {
    try {
      const pruned = await pruneExpired(store, clock.now());
      // Bytes no record names (an upload refused after streaming, a crash between file and record).
      const swept = await store.media.sweep();
      const tokens = await pruneExpiredTokens(store, clock.now());
      const printJobs = await pruneDonePrintJobs(store, clock.now());
      if (printJobs > 0) log.debug({ print_jobs: printJobs }, 'housekeeping removed print jobs done over a week ago');
      if (tokens > 0) log.debug({ tokens }, 'housekeeping removed tokens that expired over a week ago');
      if (failing) log.info('housekeeping works again');
      failing = false;
      if (pruned.idempotencyKeys + pruned.changeLogEntries > 0) log.debug(pruned, 'housekeeping pruned expired entries');
      if (swept.removed > 0) log.info(swept, 'housekeeping removed media files no record names');
      return true;
    } catch (error) {
      if (failing) log.debug({ err: error }, 'housekeeping failed again');
      else
        log.error(
          { err: error },
          'housekeeping failed (pruning expired idempotency keys and change-log entries); the station carries on serving and retries every hour',
        );
      failing = true;
      return false;
    }
  };
  const timer = setInterval(() => void runOnce(), HOUR);
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}
