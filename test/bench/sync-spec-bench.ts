import { createLineItem } from '../../electron/station/domain/line-items.ts';
import { attachMedia } from '../../electron/station/domain/media-files.ts';
import { createPackage, updatePackage } from '../../electron/station/domain/packages.ts';
import { listState } from '../../electron/station/sync/lists/list-state.ts';
import { DEFAULT_PULL_INTERVAL_MS } from '../../electron/station/sync/scheduler.ts';
import type { FakeReturnsService } from '../sync/fake-returns-service.ts';
import type { BenchRow } from './report.ts';
import { HOUR, MINUTE, requestsBetween, RTT_MS, seeded, seedNewPackage, seedUpstream, Sim, SimStation, startSimFake } from './sync-sim.ts';
import type { BoundTables } from '../../electron/station/store/index.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * `sync` against the spec-only fake (test/sync/fake-returns-service.ts: filters ignored, 100 records
 * a page, ids ascending, 1,000 requests an hour per account), on simulated time (sync-sim.ts), each
 * figure beside the same work sent straight to a second fake as bare HTTP (one request per change,
 * 429 waited out). One station, account 1:
 *
 * - parcels an hour fully synced: in-transit packages pulled to the station, then received at the dock
 *   faster than the limit allows (a receipt: status, arrival, notes; and with 3 inspected items and
 *   2 photos on a fake that has those routes), counted by the upstream's own log;
 * - first pull of BENCH_SPEC_FIRST_PULL packages (requests, minutes), then the idle hour at each of
 *   BENCH_SPEC_IDLE_SIZES upstream packages, and minutes until a new upstream package is on the station;
 * - lost creates: BENCH_SPEC_LOST creates made at the dock whose answers the fake loses, then the
 *   packages per tracking number upstream (duplicates).
 */

const SECTION = 'sync';
const IDLE_SIZES = (process.env.BENCH_SPEC_IDLE_SIZES ?? '600,10000,100000').split(',').map(Number);
const FIRST_PULL = Number(process.env.BENCH_SPEC_FIRST_PULL ?? 10_000);
const LOST = Number(process.env.BENCH_SPEC_LOST ?? 250);
const NEW_PACKAGES = Number(process.env.BENCH_SPEC_NEW_PACKAGES ?? 12);
const LIMIT = 1_000;

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const minutes = (ms: number) => (ms < 2 * MINUTE ? `${fmt(ms / 1000, 1)} s` : `${fmt(ms / MINUTE, 1)} min`);

/** p50 and largest of a list. */
function spread(values: number[]): { p50: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: sorted[Math.floor((sorted.length - 1) / 2)] ?? 0, max: sorted.at(-1) ?? 0 };
}

// -- sending straight -------------------------------------------------------------------------------

/**
 * A bare HTTP call to the fake on simulated time: the request takes RTT_MS; a 429 is waited out
 * (Retry-After) and sent again. A lost answer throws.
 */
export async function sendStraight(
  sim: Sim,
  fake: FakeReturnsService,
  token: string,
  method: string,
  url: string,
  body?: { json?: unknown; bytes?: Uint8Array; contentType?: string },
): Promise<{ status: number; json: unknown }> {
  for (;;) {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    let payload: string | Uint8Array | undefined;
    if (body?.json !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body.json);
    } else if (body?.bytes) {
      headers['content-type'] = body.contentType ?? 'application/octet-stream';
      payload = body.bytes;
    }
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { method, headers, ...(payload === undefined ? {} : { body: payload }) });
      text = await response.text();
    } finally {
      await sim.sleep(RTT_MS);
    }
    if (response.status === 429) {
      await sim.sleep(Number(response.headers.get('retry-after') ?? 60) * 1000);
      continue;
    }
    return { status: response.status, json: text === '' ? null : (JSON.parse(text) as unknown) };
  }
}

const packagesUrl = (fake: FakeReturnsService, account = 1) => `${fake.baseUrl}/v1/accounts/${account}/return_packages`;

/** Pages through both lists at the largest page the fake answers (its cap): what a first pull needs at least. */
async function pageThroughStraight(sim: Sim, fake: FakeReturnsService): Promise<void> {
  const token = fake.token([1]);
  for (const url of [`${fake.baseUrl}/v1/accounts/1/returns`, packagesUrl(fake)]) {
    for (let page = 1; ; page += 1) {
      const answer = await sendStraight(sim, fake, token, 'GET', `${url}?page=${page}&per_page=${fake.modes.pageCap}`);
      const meta = (answer.json as { meta: { total_pages: number } }).meta;
      if (page >= meta.total_pages) break;
    }
  }
}

// -- first pull, idle, new packages ----------------------------------------------------------------

async function pullDone(station: SimStation): Promise<boolean> {
  for (const list of ['returns', 'packages'] as const) {
    const state = await listState(station.store.tables, 1, list);
    if (state.pass !== null || state.passed_at === null) return false;
  }
  return true;
}

/**
 * One upstream size: the station's first pull (until both lists are read through), an hour to settle,
 * the idle hour counted, then (when asked) new upstream packages, one every ~7 minutes at uneven
 * offsets, each timed until it is on the station.
 */
async function sizeCase(size: number, options: { firstPullRows: boolean; newPackages: number }): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const sim = new Sim();
  const fake = await startSimFake(sim);
  seedUpstream(fake, sim, size, { open: Math.round(size * 0.05) });
  const station = await SimStation.open(`idle${size}`, sim, fake);
  try {
    const started = sim.now;
    let done = false;
    station.afterRound = async () => {
      if (!done && (await pullDone(station))) done = true;
    };
    station.start();
    await sim.runUntil(started + 48 * HOUR, () => done);
    const pullMs = sim.now - started;
    const pullRequests = fake.requests.length;
    const stored = await insidesOf(station.store).db.return_packages.count();
    const rateLimited = fake.requests.filter((r) => r.status === 429).length;

    if (options.firstPullRows) {
      const straightSim = new Sim();
      const straightFake = await startSimFake(straightSim);
      seedUpstream(straightFake, straightSim, size, { open: Math.round(size * 0.05) });
      const straightStart = straightSim.now;
      let straightMs = 0;
      void straightSim.spawn(async () => {
        await pageThroughStraight(straightSim, straightFake);
        straightMs = straightSim.now - straightStart;
      });
      await straightSim.runUntil(straightSim.now + 48 * HOUR);
      const straightRequests = straightFake.requests.length;
      await straightFake.close();
      const baseline = `first pull of ${fmt(size)} packages sent straight: every page of both lists at the fake's cap (baseline)`;
      rows.push({ section: SECTION, name: baseline, value: `${straightRequests} requests, ${minutes(straightMs)}` });
      rows.push({
        section: SECTION,
        name: `first pull of ${fmt(size)} packages and their returns (spec-only fake, ${fake.modes.pageCap} a page, ${LIMIT}/h)`,
        value: `${pullRequests} requests, ${minutes(pullMs)} (${fmt(pullRequests / straightRequests, 2)}× the requests, ${fmt(pullMs / Math.max(1, straightMs), 1)}× the time); ${stored} stored${rateLimited ? `, ${rateLimited} answered 429` : ''}`,
        baseline,
        ok: done && stored === size,
      });
    } else {
      const ok = done && stored === size;
      rows.push({
        section: SECTION,
        name: `first pull of ${fmt(size)} packages (the idle case's setup)`,
        value: `${pullRequests} requests, ${minutes(pullMs)}, ${stored} stored${ok ? '' : ' (**not done**)'}${rateLimited ? `, ${rateLimited} answered 429` : ''}`,
        ...(ok ? {} : { ok }),
      });
    }

    // Settle for an hour (the probe of updated_since, the first refresh cycle), then count an idle hour.
    await sim.runUntil(sim.now + HOUR);
    const idleFrom = sim.now;
    await sim.runUntil(idleFrom + HOUR);
    const idle = requestsBetween(fake, idleFrom, idleFrom + HOUR).length;
    const pages = 2 * Math.ceil(size / fake.modes.pageCap);
    const intervals = HOUR / DEFAULT_PULL_INTERVAL_MS;
    const idleBaseline = `idle at ${fmt(size)} upstream packages sent straight: every page of both lists each ${DEFAULT_PULL_INTERVAL_MS / 1000} s (baseline)`;
    rows.push({
      section: SECTION,
      name: idleBaseline,
      value: `${fmt(pages * intervals)} requests an hour (${pages} a round; the newest page of each list alone: ${2 * intervals})`,
    });
    rows.push({
      section: SECTION,
      name: `idle requests an hour at ${fmt(size)} upstream packages`,
      value: `${idle} (one round every ${DEFAULT_PULL_INTERVAL_MS / 1000} s)`,
      baseline: idleBaseline,
      target: '≤ 60',
      ok: idle <= 60,
    });

    if (options.newPackages > 0) {
      const random = seeded(size);
      const pending = new Map<string, number>();
      const latencies: number[] = [];
      station.afterRound = async () => {
        for (const [tracking, at] of pending) {
          if (await station.hasTracking(tracking)) {
            latencies.push(sim.now - at);
            pending.delete(tracking);
          }
        }
      };
      for (let i = 0; i < options.newPackages; i += 1) {
        await sim.runUntil(sim.now + 5 * MINUTE + Math.floor(random() * 4 * MINUTE));
        const tracking = `NEW${size}-${i}`;
        seedNewPackage(fake, sim, tracking);
        pending.set(tracking, sim.now);
      }
      await sim.runUntil(sim.now + 2 * HOUR, () => pending.size === 0);
      const { p50, max } = spread(latencies);
      rows.push({
        section: SECTION,
        name: `minutes until a new upstream package is on the station (${fmt(size)} upstream, ${options.newPackages} new, uneven times)`,
        value: `p50 ${minutes(p50)}, max ${minutes(max)}${pending.size ? `; ${pending.size} not there after 2 h` : ''} (sent straight: the next poll of the newest page, ≤ ${DEFAULT_PULL_INTERVAL_MS / MINUTE} min)`,
        target: '≤ 5 min',
        ok: pending.size === 0 && max <= 5 * MINUTE,
      });
    }
    return rows;
  } finally {
    await station.close();
    await fake.close();
  }
}

// -- parcels an hour -------------------------------------------------------------------------------

/** A photo's bytes (a JPEG magic number and noise), different per seed. */
function photo(seed: number): Uint8Array {
  const random = seeded(seed);
  const body = Uint8Array.from({ length: 2048 }, () => Math.floor(random() * 256));
  return new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...body, 0xff, 0xd9]);
}

const ITEMS = 3;
const PHOTOS = 2;

/** A dock receipt at the station: (items and photos,) then status received with notes; the arrival is set by the move. */
async function receiveAtStation(sim: Sim, station: SimStation, tracking: string, n: number, withItems: boolean): Promise<void> {
  const pkg = await station.packageByTracking(tracking);
  if (!pkg) throw new Error(`${tracking} is not on station ${station.name}`);
  const write = <T>(fn: (t: BoundTables, now: string) => Promise<T>) => station.store.write((t) => fn(t, sim.clock.now()));
  if (withItems) {
    const ret = await insidesOf(station.store).db.returns.get(pkg.return_id);
    for (let i = 0; i < ITEMS; i += 1) {
      const line = ret?.return_line_items[i];
      await write((t, now) =>
        createLineItem(t, now, 1, pkg.id, {
          return_line_item_id: line?.id ?? null,
          quantity: 1,
          serial: null,
          condition: 'like_new',
          defective: false,
          notes: null,
          barcode: null,
          tags: [],
        }),
      );
    }
    for (let p = 0; p < PHOTOS; p += 1) {
      const stored = await station.store.media.put(photo(n * 10 + p));
      await write((t, now) => attachMedia(t, now, 1, pkg.id, stored, 'image/jpeg', 'image'));
    }
  }
  await write((t, now) => updatePackage(t, now, 1, pkg.id, { status: 'received', notes: `received at the dock (${n})` }));
}

/** The same receipt sent straight: one POST per item and photo, one PATCH. */
async function receiveStraight(sim: Sim, fake: FakeReturnsService, token: string, upstreamId: number, n: number, withItems: boolean): Promise<void> {
  const url = `${packagesUrl(fake)}/${upstreamId}`;
  if (withItems) {
    const lines = fake.returns(1).find((r) => r.id === fake.packages(1).find((p) => p.id === upstreamId)?.return_id)?.return_line_items ?? [];
    for (let i = 0; i < ITEMS; i += 1)
      await sendStraight(sim, fake, token, 'POST', `${url}/line_items`, {
        json: { return_line_item_id: lines[i]?.id ?? null, quantity: 1, condition: 'like_new', defective: false, tags: [] },
      });
    for (let p = 0; p < PHOTOS; p += 1)
      await sendStraight(sim, fake, token, 'POST', `${url}/media_files`, { bytes: photo(n * 10 + p), contentType: 'image/jpeg' });
  }
  await sendStraight(sim, fake, token, 'PATCH', url, { json: { status: 'received', actual_arrival: sim.clock.now(), notes: `received at the dock (${n})` } });
}

/** When each package's receipt was complete upstream: its PATCH to received answered (items and photos go before it). */
function receiptTimes(fake: FakeReturnsService): Map<number, number> {
  const times = new Map<number, number>();
  for (const r of fake.requests) {
    const id = /\/return_packages\/(\d+)$/.exec(r.path)?.[1];
    if (r.method !== 'PATCH' || id === undefined || r.status !== 200 || !r.body.includes('"received"')) continue;
    if (!times.has(Number(id))) times.set(Number(id), r.at + RTT_MS);
  }
  return times;
}

/** Receipts complete upstream within an hour of t0, and the ones whose upstream record lacks something at the end. */
function countReceipts(
  fake: FakeReturnsService,
  ids: number[],
  t0: number,
  withItems: boolean,
): { inHour: number; incomplete: number; requests: number; limited: number } {
  const times = receiptTimes(fake);
  const byId = new Map(fake.packages(1).map((p) => [p.id, p]));
  let inHour = 0;
  let incomplete = 0;
  for (const id of ids) {
    const at = times.get(id);
    if (at !== undefined && at <= t0 + HOUR) inHour += 1;
    const p = byId.get(id);
    if (
      at !== undefined &&
      (p?.status !== 'received' ||
        p.notes === null ||
        p.actual_arrival === null ||
        (withItems && (p.line_items.length !== ITEMS || p.media_files.length !== PHOTOS)))
    )
      incomplete += 1;
  }
  const hour = requestsBetween(fake, t0, t0 + HOUR);
  return { inHour, incomplete, requests: hour.length, limited: hour.filter((r) => r.status === 429).length };
}

/**
 * The dock receives `offered` parcels in the hour, evenly; each is an in-transit package the station
 * pulled before (the window of that pull over). Counted: receipts complete upstream within the hour.
 */
async function parcelsAnHour(withItems: boolean): Promise<BenchRow[]> {
  const offered = withItems ? 300 : 1_200;
  const what = withItems
    ? `a receipt with ${ITEMS} items and ${PHOTOS} photos (the fake's line item and media routes on)`
    : 'a receipt (status, arrival, notes)';
  const modes = withItems ? { lineItemRoutes: true, mediaRoutes: true } : {};
  const prefix = withItems ? 'ITEMS' : 'PARCEL';

  // The station: pull the open packages, let the limit's window pass, then the dock's hour.
  const sim = new Sim();
  const fake = await startSimFake(sim, modes);
  seedUpstream(fake, sim, offered, { open: offered, lines: withItems ? ITEMS : 1, prefix });
  const station = await SimStation.open(withItems ? 'items' : 'receipts', sim, fake);
  let engine: { inHour: number; incomplete: number; requests: number; limited: number; stationRequests: number };
  try {
    let done = false;
    station.afterRound = async () => {
      if (!done && (await pullDone(station))) done = true;
    };
    station.start();
    await sim.runUntil(sim.now + 12 * HOUR, () => done);
    station.afterRound = null;
    await sim.runUntil(sim.now + HOUR + 5 * MINUTE);
    const t0 = sim.now;
    const gap = HOUR / offered;
    void sim.spawn(async () => {
      for (let n = 0; n < offered; n += 1) {
        await receiveAtStation(sim, station, `${prefix}${String(n).padStart(7, '0')}`, n, withItems);
        await sim.sleep(gap);
      }
    });
    await sim.runUntil(t0 + HOUR);
    const ids = fake.packages(1).map((p) => p.id);
    engine = { ...countReceipts(fake, ids, t0, withItems), stationRequests: 0 };
    // The rest of the backlog, to check every receipt goes up whole in the end (not timed).
    await sim.runUntil(t0 + 6 * HOUR, () => false);
    const all = countReceipts(fake, ids, t0, withItems);
    engine.incomplete = all.incomplete;
    engine.stationRequests = all.requests;
    const missing = ids.length - receiptTimes(fake).size;
    if (missing > 0) engine.incomplete += missing;
  } finally {
    await station.close();
    await fake.close();
  }

  // Sent straight: the same parcels at the same times, each as soon as it arrives.
  const sim2 = new Sim();
  const fake2 = await startSimFake(sim2, modes);
  seedUpstream(fake2, sim2, offered, { open: offered, lines: withItems ? ITEMS : 1, prefix });
  const t0 = sim2.now;
  const token = fake2.token([1]);
  const ids = fake2.packages(1).map((p) => p.id);
  void sim2.spawn(async () => {
    for (let n = 0; n < offered; n += 1) {
      const due = t0 + n * (HOUR / offered);
      if (sim2.now < due) await sim2.sleep(due - sim2.now);
      await receiveStraight(sim2, fake2, token, ids[n] ?? 0, n, withItems);
    }
  });
  await sim2.runUntil(t0 + HOUR);
  const straight = countReceipts(fake2, ids, t0, withItems);
  await fake2.close();

  const perParcel = withItems ? 1 + ITEMS + PHOTOS : 1;
  const baseline = `parcels an hour sent straight, ${what} (baseline)`;
  const limited = (n: number) => (n ? `, ${n} answered 429` : '');
  return [
    {
      section: SECTION,
      name: baseline,
      value: `${straight.inHour} of ${offered} offered (${perParcel} request${perParcel > 1 ? 's' : ''} a parcel: at most ${Math.floor(LIMIT / perParcel)} at ${fmt(LIMIT)}/h; ${straight.requests} requests in the hour${limited(straight.limited)})`,
    },
    {
      section: SECTION,
      name: `parcels an hour fully synced per account, ${what}`,
      value: `${engine.inHour} of ${offered} offered (${fmt((engine.inHour / Math.max(1, straight.inHour)) * 100, 0)} % of sent straight), ${engine.requests} requests in the hour${limited(engine.limited)}; ${engine.incomplete ? `**${engine.incomplete} not complete upstream after 6 h**` : 'every receipt complete upstream by the end'}`,
      baseline,
      target: '≥ 300',
      ok: engine.inHour >= 300,
    },
  ];
}

// -- lost creates ----------------------------------------------------------------------------------

/** Upstream packages per tracking number: how many tracking numbers are there more than once, and how many copies too many. */
function duplicatesOf(fake: FakeReturnsService, prefix: string): { numbers: number; extra: number; present: number } {
  const counts = new Map<string, number>();
  for (const p of fake.packages(1)) if (p.tracking_number?.startsWith(prefix)) counts.set(p.tracking_number, (counts.get(p.tracking_number) ?? 0) + 1);
  let numbers = 0;
  let extra = 0;
  for (const count of counts.values()) {
    if (count > 1) {
      numbers += 1;
      extra += count - 1;
    }
  }
  return { numbers, extra, present: counts.size };
}

const isCreate = (req: { method: string; path: string }) => req.method === 'POST' && /\/return_packages$/.test(req.path);

/**
 * The dock makes LOST packages (parcels the upstream did not announce) against returns pulled from
 * the upstream, one every 10 s; the fake commits each of the first LOST creates and drops its answer.
 */
async function lostCreates(): Promise<BenchRow[]> {
  const returnsCount = 50;
  const sim = new Sim();
  const fake = await startSimFake(sim);
  seedUpstream(fake, sim, returnsCount, { open: 0, prefix: 'KNOWN' });
  const station = await SimStation.open('lost', sim, fake);
  let outcome: { dup: ReturnType<typeof duplicatesOf>; ms: number; requests: number; outbox: number; pending: number; lost: number };
  try {
    let done = false;
    station.afterRound = async () => {
      if (!done && (await pullDone(station))) done = true;
    };
    station.start();
    await sim.runUntil(sim.now + 6 * HOUR, () => done);
    station.afterRound = null;
    await sim.runUntil(sim.now + HOUR + 5 * MINUTE);
    let creates = 0;
    fake.modes.loseAnswer = (req) => isCreate(req) && creates++ < LOST;
    const t0 = sim.now;
    const returnIds = (await insidesOf(station.store).db.returns.toArray()).map((r) => r.id);
    void sim.spawn(async () => {
      for (let n = 0; n < LOST; n += 1) {
        await station.store.write((t) =>
          createPackage(t, sim.clock.now(), 1, {
            return_id: returnIds[n % returnIds.length] ?? 0,
            tracking_number: `LOST${String(n).padStart(6, '0')}`,
            status: 'received',
            estimated_arrival: null,
            shipping_method: null,
            weight: 1,
            weight_unit: 'kg',
            width: null,
            height: null,
            length: null,
            dimension_unit: null,
            shipping_label_cost: null,
            shipping_label_cost_currency: null,
            carrier_id: null,
            location_id: null,
          }),
        );
        await sim.sleep(10_000);
      }
    });
    let settledAt = 0;
    station.afterRound = async () => {
      if (settledAt === 0 && sim.now > t0 + LOST * 10_000 && (await insidesOf(station.store).db.outbox.count()) === 0) settledAt = sim.now;
    };
    await sim.runUntil(t0 + 12 * HOUR, () => settledAt !== 0);
    outcome = {
      dup: duplicatesOf(fake, 'LOST'),
      ms: (settledAt || sim.now) - t0,
      requests: fake.requests.filter((r) => r.at >= t0).length,
      outbox: await insidesOf(station.store).db.outbox.count(),
      pending: LOST - duplicatesOf(fake, 'LOST').present,
      lost: fake.requests.filter((r) => r.status === 'lost').length,
    };
  } finally {
    await station.close();
    await fake.close();
  }

  // Sent straight: each create once, and once more when its answer is lost (a client without a way to look).
  const sim2 = new Sim();
  const fake2 = await startSimFake(sim2);
  seedUpstream(fake2, sim2, returnsCount, { open: 0, prefix: 'KNOWN' });
  // The first send of each tracking number loses its answer; the send again is answered.
  const tried = new Set<string>();
  fake2.modes.loseAnswer = (req) => {
    if (!isCreate(req)) return false;
    const tracking = String((JSON.parse(req.body) as { tracking_number?: unknown }).tracking_number);
    if (tried.has(tracking) || tried.size >= LOST) return false;
    tried.add(tracking);
    return true;
  };
  const token = fake2.token([1]);
  const returnIds = fake2.returns(1).map((r) => r.id);
  void sim2.spawn(async () => {
    for (let n = 0; n < LOST; n += 1) {
      const body = {
        return_id: returnIds[n % returnIds.length],
        tracking_number: `LOST${String(n).padStart(6, '0')}`,
        status: 'received',
        weight: 1,
        weight_unit: 'kg',
      };
      for (let attempt = 0; attempt < 2; attempt += 1) {
        try {
          await sendStraight(sim2, fake2, token, 'POST', packagesUrl(fake2), { json: body });
          break;
        } catch {
          // lost: send again
        }
      }
      await sim2.sleep(10_000);
    }
  });
  await sim2.runUntil(sim2.now + 12 * HOUR);
  const straight = duplicatesOf(fake2, 'LOST');
  const straightLost = fake2.requests.filter((r) => r.status === 'lost').length;
  await fake2.close();

  const baseline = `${LOST} creates sent straight, each sent again once when its answer is lost (baseline)`;
  return [
    {
      section: SECTION,
      name: baseline,
      value: `${straight.extra} duplicate packages upstream over ${straightLost} lost answers (${straight.numbers} tracking numbers twice)`,
    },
    {
      section: SECTION,
      name: `duplicates over ${outcome.lost} lost create answers (packages made at the dock, one every 10 s)`,
      value: `${outcome.dup.extra} duplicates (${outcome.dup.numbers} tracking numbers more than once); ${outcome.dup.present} of ${LOST} upstream${outcome.pending ? `, **${outcome.pending} missing**` : ''}; outbox ${outcome.outbox === 0 ? `empty ${minutes(outcome.ms)} after the first create` : `**${outcome.outbox} left after 12 h**`}, ${outcome.requests} requests`,
      baseline,
      target: '0, over ≥ 200',
      ok: outcome.dup.extra === 0 && outcome.lost >= 200 && outcome.pending === 0,
    },
  ];
}

export async function runSyncSpecBench(): Promise<BenchRow[]> {
  const cases = new Set((process.env.BENCH_SPEC_CASES ?? 'parcels,items,sizes,lost').split(','));
  const rows: BenchRow[] = [];
  const log = (what: string) => process.stderr.write(`[sync-spec] ${new Date().toISOString()} ${what}\n`);
  if (cases.has('parcels')) {
    log('parcels an hour (receipts)');
    rows.push(...(await parcelsAnHour(false)));
  }
  if (cases.has('items')) {
    log('parcels an hour (items and photos)');
    rows.push(...(await parcelsAnHour(true)));
  }
  if (cases.has('sizes')) {
    for (const size of IDLE_SIZES) {
      log(`first pull / idle at ${size}`);
      rows.push(...(await sizeCase(size, { firstPullRows: size === FIRST_PULL, newPackages: size === FIRST_PULL ? NEW_PACKAGES : 0 })));
    }
  }
  if (cases.has('lost')) {
    log('lost creates');
    rows.push(...(await lostCreates()));
  }
  return rows;
}
