import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../electron/station/domain/clock.ts';
import { seedCatalog } from '../../electron/station/domain/catalog.ts';
import { openStore, type StationStore, trackingKey } from '../../electron/station/store/index.ts';
import type { RoundReport } from '../../electron/station/sync/sync-context.ts';
import { createSyncEngine, type SyncEngine } from '../../electron/station/sync/sync-engine.ts';
import { DEFAULT_PULL_INTERVAL_MS } from '../../electron/station/sync/scheduler.ts';
import { writeUpstreamSettings } from '../../electron/station/sync/settings.ts';
import type { FetchLike, UpstreamSettings } from '../../electron/station/sync/upstream/upstream-client.ts';
import { type FakeReturnsService, type PackageSeed, startFakeReturnsService, type FakeModes } from '../sync/fake-returns-service.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * Simulated time for the sync bench against the spec-only fake (test/sync/fake-returns-service.ts):
 * an hour of sync cannot be run in real time, so stations, the fake and the docks share one virtual
 * clock, advanced by a discrete-event loop. Every actor (a station's scheduler, a dock, a client
 * sending straight) waits only on `sim.sleep`; when every actor is waiting, the loop moves the
 * clock to the earliest wake-up. Real work (HTTP over loopback, store writes) takes no virtual time;
 * each request takes `rttMs` of it, counted when its answer is read.
 */

export const BENCH_EPOCH = Date.parse('2026-03-02T08:00:00.000Z');

interface Timer {
  at: number;
  seq: number;
  wake: () => void;
}

export class Sim {
  now = BENCH_EPOCH;
  private timers: Timer[] = [];
  private seq = 0;
  /** Actors not waiting on a virtual timer. */
  private running = 0;
  private quiet: (() => void) | null = null;
  readonly clock: Clock = { now: () => new Date(this.now).toISOString() };

  private parked(): void {
    this.running -= 1;
    if (this.running === 0 && this.quiet) {
      const q = this.quiet;
      this.quiet = null;
      q();
    }
  }

  /** A wake-up `ms` from now that its owner may move (the scheduler's timer). */
  timer(ms: number): { promise: Promise<void>; moveTo(at: number): void } {
    let entry: Timer | undefined;
    const promise = new Promise<void>((resolve) => {
      entry = { at: this.now + Math.max(0, ms), seq: this.seq++, wake: resolve };
      this.timers.push(entry);
    });
    this.parked();
    const owned = entry as Timer;
    return { promise, moveTo: (at) => void (owned.at = Math.max(this.now, at)) };
  }

  sleep = (ms: number): Promise<void> => this.timer(ms).promise;

  /** Runs `body` as an actor (it counts as busy until it waits on the clock or ends). */
  spawn(body: () => Promise<void>): Promise<void> {
    this.running += 1;
    return body().finally(() => this.parked());
  }

  /** Runs the actors until the clock reaches `until` (or every actor has ended); returns with every actor waiting. */
  async runUntil(until: number, stop: () => boolean = () => false): Promise<void> {
    for (;;) {
      if (this.running > 0) await new Promise<void>((resolve) => (this.quiet = resolve));
      if (stop()) return;
      let next: Timer | undefined;
      for (const timer of this.timers) if (!next || timer.at < next.at || (timer.at === next.at && timer.seq < next.seq)) next = timer;
      if (!next || next.at > until) {
        this.now = Math.max(this.now, until);
        return;
      }
      this.timers.splice(this.timers.indexOf(next), 1);
      this.now = Math.max(this.now, next.at);
      this.running += 1;
      next.wake();
    }
  }
}

/** A deterministic random source (mulberry32), for the engine's backoff jitter and the bench's own choices. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A request a simulated station sent: when (virtual time), and how long its answer took in real time. */
export interface SentRequest {
  at: number;
  ms: number;
}

export const RTT_MS = Number(process.env.BENCH_SPEC_RTT_MS ?? 100);

/**
 * The station's HTTP, as seen by the simulation: the answer is read in full (real time), then the
 * request takes `RTT_MS` of virtual time. The station is set to the fake's own two addresses.
 */
export function simFetch(sim: Sim, sent?: SentRequest[]): FetchLike {
  return async (url, init) => {
    let response: Response;
    let body: ArrayBuffer;
    const at = sim.now;
    const began = performance.now();
    try {
      response = await fetch(url, init);
      body = await response.arrayBuffer();
      sent?.push({ at, ms: performance.now() - began });
    } catch (error) {
      sent?.push({ at, ms: performance.now() - began });
      await sim.sleep(RTT_MS);
      throw error;
    }
    await sim.sleep(RTT_MS);
    const empty = response.status === 204 || response.status === 304 || body.byteLength === 0;
    return new Response(empty ? null : body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The fake on the simulation's clock, with its defaults (filters ignored, 100 a page, 1,000 requests an hour per account) unless told. */
export function startSimFake(sim: Sim, modes: Partial<FakeModes> = {}, accounts = [1]): Promise<FakeReturnsService> {
  return startFakeReturnsService({ clock: () => sim.now, modes, accounts });
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Seeds `count` packages upstream (no HTTP), each with its own return: the newest `open` in transit,
 * the rest received, created one minute apart ending an hour before the simulation's start.
 */
export function seedUpstream(
  fake: FakeReturnsService,
  sim: Sim,
  count: number,
  options: { open: number; account?: number; lines?: number; prefix?: string } = { open: 0 },
): void {
  const account = options.account ?? 1;
  const start = sim.now - 3_600_000 - count * 60_000;
  for (let i = 0; i < count; i += 1) {
    const at = iso(start + i * 60_000);
    const ret = fake.seedReturn(account, {
      email: `seed${i}@example.com`,
      created_at: at,
      return_line_items: Array.from({ length: options.lines ?? 1 }, (_, l) => ({ name: `Item ${l + 1}`, quantity: 1, merchant_sku: `SEED-${i}-${l}` })),
    });
    const open = i >= count - options.open;
    const seed: PackageSeed = {
      return_id: ret.id,
      tracking_number: `${options.prefix ?? 'SEED'}${String(i).padStart(7, '0')}`,
      status: open ? 'in_transit' : 'received',
      estimated_arrival: iso(start + i * 60_000 + 3 * 86_400_000),
      weight: 1.5,
      weight_unit: 'kg',
      length: 30,
      width: 20,
      height: 10,
      dimension_unit: 'cm',
      created_at: at,
    };
    if (!open) seed.actual_arrival = at;
    fake.seedPackage(account, seed);
  }
}

/** A new upstream package (and its return), made now by the back office (no HTTP). */
export function seedNewPackage(fake: FakeReturnsService, sim: Sim, trackingNumber: string, account = 1): void {
  const ret = fake.seedReturn(account, {
    email: `${trackingNumber.toLowerCase()}@example.com`,
    return_line_items: [{ name: 'Item', quantity: 1, merchant_sku: trackingNumber }],
  });
  fake.seedPackage(account, {
    return_id: ret.id,
    tracking_number: trackingNumber,
    status: 'in_transit',
    weight: 1,
    weight_unit: 'kg',
    estimated_arrival: iso(sim.now + 86_400_000),
  });
}

/** As in scheduler.ts (not exported there): a round that left a full pass under way comes back this soon. */
const MORE_DELAY_MS = 1_000;
/** As in scheduler.ts: a local change is pushed this soon after it is durable. */
const PUSH_DELAY_MS = 300;
/** As in scheduler.ts: a round reads what an event told of this soon after it came. */
const EVENT_DELAY_MS = 100;

/**
 * A station: a real store on a temp dir, a real engine on the virtual clock (its rate budgets too),
 * and a loop that takes the scheduler's decisions (scheduler.ts, startSyncScheduler) on virtual time:
 * a pull round every DEFAULT_PULL_INTERVAL_MS, back in MORE_DELAY_MS when a pass is under way, a push
 * round PUSH_DELAY_MS after a local change, a retry when the earliest backed-off change is due, 5 s
 * after an offline round.
 */
export class SimStation {
  readonly name: string;
  readonly store: StationStore;
  readonly engine: SyncEngine;
  readonly dir: string;
  private readonly sim: Sim;
  private dirty = false;
  private waiting: { moveTo(at: number): void } | null = null;
  /** When the loop's current wait ends. */
  private waitingAt = 0;
  private nextPullAt = 0;
  private stopped = false;
  rounds = 0;
  roundErrors: string[] = [];
  pullFailed = 0;
  offlineRounds = 0;
  /** Called after every round (the bench watches for records here). */
  afterRound: ((report: RoundReport) => Promise<void>) | null = null;

  /** Each request this station sent its upstream. */
  readonly sent: SentRequest[];

  private constructor(name: string, sim: Sim, store: StationStore, engine: (sent: SentRequest[]) => SyncEngine, dir: string) {
    this.name = name;
    this.sent = [];
    this.engine = engine(this.sent);
    this.sim = sim;
    this.store = store;
    this.dir = dir;
    store.subscribe((entries) => {
      // As the scheduler: only returns and packages (the pull's own writes land here too).
      if (entries.some((e) => e.resource === 'return' || e.resource === 'return_package')) {
        this.dirty = true;
        this.wakeBy(this.sim.now + PUSH_DELAY_MS);
      }
    });
  }

  static async open(name: string, sim: Sim, fake: FakeReturnsService, options: { accounts?: number[]; seed?: number } = {}): Promise<SimStation> {
    const accounts = options.accounts ?? [1];
    return SimStation.openOn(name, sim, { returns_url: fake.returnsUrl, base_url: fake.baseUrl, token: fake.token(accounts), accounts }, options.seed);
  }

  /** A station whose upstream is `settings` (a site's hub, say), on a store of its own. */
  static async openOn(name: string, sim: Sim, settings: UpstreamSettings, seed?: number): Promise<SimStation> {
    const dir = await mkdtemp(join(tmpdir(), `bench-spec-${name}-`));
    const store = await openStore({ dataDir: dir });
    await seedCatalog(store);
    await writeUpstreamSettings(store, settings, sim.clock.now());
    return new SimStation(name, sim, store, (sent) => SimStation.engineOf(store, sim, seed, sent), dir);
  }

  /**
   * Sync on the virtual clock over a store someone else opened and closes (a hub's, which its own
   * station serves): `close` stops the loop and leaves the store and its directory alone.
   */
  static over(name: string, sim: Sim, store: StationStore, seed?: number): SimStation {
    const station = new SimStation(name, sim, store, (sent) => SimStation.engineOf(store, sim, seed, sent), '');
    station.borrowed = true;
    return station;
  }

  private borrowed = false;
  /** Accounts an event told of since the last round. */
  private readonly told = new Set<number>();

  /**
   * An event from a followed upstream told of a change to this account, `delayMs` after the change:
   * a round reads it EVENT_DELAY_MS after that, as the scheduler's (a round due sooner keeps its time).
   */
  toldOf(accountId: number, delayMs: number): void {
    if (this.stopped) return;
    this.told.add(accountId);
    this.wakeBy(this.sim.now + delayMs + EVENT_DELAY_MS);
  }

  /** The loop's wait ends by `at` (a wait due sooner keeps its time). */
  private wakeBy(at: number): void {
    if (this.waiting && at < this.waitingAt) {
      this.waiting.moveTo(at);
      this.waitingAt = at;
    }
  }

  private static engineOf(store: StationStore, sim: Sim, seed = 1, sent?: SentRequest[]): SyncEngine {
    return createSyncEngine({ store, clock: sim.clock, fetch: simFetch(sim, sent), random: seeded(seed), budget: { now: () => sim.now, sleep: sim.sleep } });
  }

  /**
   * Stops this station as its process stops and opens it again on the same data directory: a new
   * engine, nothing kept in memory (the gate, the budget), only what the store holds. Not started.
   */
  async restart(seed = 1): Promise<SimStation> {
    this.stopped = true;
    this.waiting?.moveTo(this.sim.now);
    await this.store.close();
    const store = await openStore({ dataDir: this.dir });
    return new SimStation(this.name, this.sim, store, (sent) => SimStation.engineOf(store, this.sim, seed, sent), this.dir);
  }

  /** Starts the scheduler loop as an actor of the simulation. */
  start(): void {
    void this.sim.spawn(() => this.loop());
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.dirty = false;
      const due = this.sim.now >= this.nextPullAt;
      if (due) this.nextPullAt = this.sim.now + DEFAULT_PULL_INTERVAL_MS;
      // Accounts an event told of are read at once (the change feed, else the newest end), as the scheduler does.
      const pullNow = [...this.told];
      this.told.clear();
      let delay: number;
      try {
        const report = await this.engine.runRound({ pull: due || pullNow.length > 0, ...(pullNow.length > 0 ? { pullNow } : {}) });
        this.rounds += 1;
        if (report.offline) this.offlineRounds += 1;
        this.pullFailed += report.pull_failed.length;
        await this.afterRound?.(report);
        const retryAt = await this.engine.nextRetryAt();
        const nextRetry = retryAt === undefined ? Infinity : retryAt - this.sim.now;
        if (report.more && !report.offline) this.nextPullAt = Math.min(this.nextPullAt, this.sim.now + MORE_DELAY_MS);
        if (report.backoff_until !== null) for (const accountId of pullNow) this.told.add(accountId);
        delay = this.dirty
          ? PUSH_DELAY_MS
          : this.told.size > 0
            ? EVENT_DELAY_MS
            : Math.min(this.nextPullAt - this.sim.now, Math.max(nextRetry, report.offline ? 5_000 : 0));
      } catch (error) {
        this.roundErrors.push(error instanceof Error ? error.message : String(error));
        delay = DEFAULT_PULL_INTERVAL_MS;
      }
      const timer = this.sim.timer(Math.max(0, delay));
      this.waiting = timer;
      this.waitingAt = this.sim.now + Math.max(0, delay);
      await timer.promise;
      this.waiting = null;
    }
  }

  stop(): void {
    this.stopped = true;
  }

  async hasTracking(trackingNumber: string, account = 1): Promise<boolean> {
    return (
      (await insidesOf(this.store)
        .db.return_packages.where('[account_id+tracking_key]')
        .equals([account, trackingKey(trackingNumber)])
        .count()) > 0
    );
  }

  async packageByTracking(trackingNumber: string, account = 1) {
    return insidesOf(this.store)
      .db.return_packages.where('[account_id+tracking_key]')
      .equals([account, trackingKey(trackingNumber)])
      .first();
  }

  async close(): Promise<void> {
    this.stopped = true;
    this.waiting?.moveTo(this.sim.now);
    if (this.borrowed) return;
    await this.store.close();
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** Requests the fake recorded in [from, to) of the virtual clock. */
export function requestsBetween(fake: FakeReturnsService, from: number, to: number) {
  return fake.requests.filter((r) => r.at >= from && r.at < to);
}

export const HOUR = 3_600_000;
export const MINUTE = 60_000;
