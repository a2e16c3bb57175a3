import type { Clock } from '../domain/clock.ts';
import type { StationStore } from '../store/index.ts';
import type { HubInterface } from './upstream/hub-interface.ts';
import type { OutboxLedger } from './outbox/outbox-ledger.ts';
import type { UpstreamClient } from './upstream/upstream-client.ts';

/** What a sync round works with. */
export interface SyncContext {
  store: StationStore;
  clock: Clock;
  client: UpstreamClient;
  /** The outbox as counted in memory: which slots a push sends, in order (outbox-ledger.ts). */
  outbox: OutboxLedger;
  /** Random per data directory: part of every Idempotency-Key, so two stations' keys never collide. */
  instanceId: string;
  random?: () => number;
  /** How far behind its cursor a pull re-reads (default PULL_OVERLAP_MS). */
  overlapMs?: number;
  /** The idle cadence the pull's reads are timed by (default DEFAULT_IDLE_EVERY_MS in pull.ts). */
  idleEveryMs?: number;
  /** How many stations share the upstream's budget, as the budget estimates it: idle reads stretch by it. */
  pace?: () => number;
  /** What sync knows of a site hub's interface (an older hub takes the spec alone: hub-interface.ts). */
  hub?: HubInterface;
}

/** What a round did, for `sync --once`, the log and the bench. */
export interface RoundReport {
  created: number;
  updated: number;
  adopted: number;
  /** Media files uploaded (one per content hash and package). */
  media_uploaded: number;
  parked: number;
  gone: number;
  retrying: number;
  waiting: number;
  pulled: number;
  conflicts: number;
  offline: boolean;
  /** The upstream failed or went away and every request waits until this instant (ISO); null: the gate is open. */
  backoff_until: string | null;
  paused: string[];
  requests: number;
  /** A pull left work for a next round soon (a full pass under way): the scheduler comes back early. */
  more: boolean;
  /** What pulls left for later, per account and list, for a person (`sync --once`, the sync screen). */
  pull_left: string[];
  /** Pull rounds that failed (an answer the station could not read, an error status), with why. */
  pull_failed: string[];
}

export function emptyReport(): RoundReport {
  return {
    created: 0,
    updated: 0,
    adopted: 0,
    media_uploaded: 0,
    parked: 0,
    gone: 0,
    retrying: 0,
    waiting: 0,
    pulled: 0,
    conflicts: 0,
    offline: false,
    backoff_until: null,
    paused: [],
    requests: 0,
    more: false,
    pull_left: [],
    pull_failed: [],
  };
}
