import { updatePackage } from '../../electron/station/domain/packages.ts';
import { listState } from '../../electron/station/sync/lists/list-state.ts';
import type { BenchRow } from './report.ts';
import { SimHub } from './sim-hub.ts';
import { HOUR, MINUTE, requestsBetween, RTT_MS, seeded, seedNewPackage, seedUpstream, Sim, SimStation, startSimFake } from './sync-sim.ts';

/*
 * `sync` fleet case against the spec-only fake, on simulated time (sync-sim.ts): BENCH_SPEC_FLEET
 * stations (default 8) syncing one account whose limit (1,000 requests an hour, scope account) they
 * share. The stations start 20 s apart and pull the account; then a 30-minute outage (503 with
 * Retry-After) during which every station's dock receives parcels; then idle. Figures: convergence
 * after the outage (every receipt upstream, and on every station), 429s, the fleet's idle requests an
 * hour, minutes until a new upstream package is on each station, and until a receipt made at one
 * station is on the others. Once per BENCH_SPEC_FLEET_FILTERS (default `ignored,honoured`): the fake
 * of page numbers alone, and the fake honouring `updated_since` (the change feed, once verified).
 */

const SECTION = 'sync';
const STATIONS = Number(process.env.BENCH_SPEC_FLEET ?? 8);
const UPSTREAM = Number(process.env.BENCH_SPEC_FLEET_PACKAGES ?? 1_000);
const RECEIPTS_PER_STATION = Number(process.env.BENCH_SPEC_FLEET_RECEIPTS ?? 25);
const SAMPLES = Number(process.env.BENCH_SPEC_FLEET_SAMPLES ?? 6);
const OUTAGE_MS = 30 * MINUTE;
const RETRY_AFTER_S = 120;

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const minutes = (ms: number) => (Math.abs(ms) < 2 * MINUTE ? `${fmt(ms / 1000, 1)} s` : `${fmt(ms / MINUTE, 1)} min`);
const tracking = (n: number) => `FLEET${String(n).padStart(7, '0')}`;

/** Requests counted by method, e.g. "2,400 PATCH, 324 GET". */
function byMethod(requests: Array<{ method: string }>): string {
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(r.method, (counts.get(r.method) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([method, count]) => `${fmt(count)} ${method}`)
    .join(', ');
}

function fail(): never {
  throw new Error('no station');
}

function spread(values: number[]): { p50: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: sorted[Math.floor((sorted.length - 1) / 2)] ?? 0, max: sorted.at(-1) ?? 0 };
}

async function pullDone(station: SimStation): Promise<boolean> {
  for (const list of ['returns', 'packages'] as const) {
    const state = await listState(station.store.tables, 1, list);
    if (state.pass !== null || state.passed_at === null) return false;
  }
  return true;
}

async function receive(sim: Sim, station: SimStation, trackingNumber: string): Promise<void> {
  const pkg = await station.packageByTracking(trackingNumber);
  if (!pkg) throw new Error(`${trackingNumber} is not on station ${station.name}`);
  await station.store.write((t) => updatePackage(t, sim.clock.now(), 1, pkg.id, { status: 'received', notes: `received at ${station.name}` }));
}

/** Per station, tracking numbers it waits to see (as received when `received`), and when each was seen. */
class Watch {
  private readonly pending: Array<Map<string, number>>;
  readonly latencies: number[][];
  private readonly received: boolean;
  constructor(stations: number, received: boolean) {
    this.pending = Array.from({ length: stations }, () => new Map());
    this.latencies = Array.from({ length: stations }, () => []);
    this.received = received;
  }
  expect(station: number, trackingNumber: string, since: number): void {
    this.pending[station]?.set(trackingNumber, since);
  }
  async check(sim: Sim, index: number, station: SimStation): Promise<void> {
    const pending = this.pending[index];
    if (!pending) return;
    for (const [trackingNumber, since] of pending) {
      const pkg = await station.packageByTracking(trackingNumber);
      if (pkg && (!this.received || pkg.status === 'received')) {
        // Seen before the time it is timed from (a hub passes receipts on during an outage): at once.
        this.latencies[index]?.push(Math.max(0, sim.now - since));
        pending.delete(trackingNumber);
      }
    }
  }
  left(): number {
    return this.pending.reduce((sum, p) => sum + p.size, 0);
  }
  all(): number[] {
    return this.latencies.flat();
  }
}

export async function runSyncFleetBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const filters of (process.env.BENCH_SPEC_FLEET_FILTERS ?? 'ignored,honoured').split(',') as Array<'ignored' | 'honoured'>)
    rows.push(...(await fleetCase({ filters, topology: 'direct', stations: STATIONS, section: SECTION })));
  return rows;
}

export interface FleetCase {
  /** The fake of page numbers alone, or one honouring `updated_since`. */
  filters: 'ignored' | 'honoured';
  /** Every station on the returns service, or every station on one site's hub (sim-hub.ts), the hub alone on the returns service. */
  topology: 'direct' | 'hub';
  stations: number;
  section: string;
  /** The label of the case each figure is set beside (the same site without a hub). */
  baselineLabel?: string;
  /** This case is the others' baseline: its figures carry no target. */
  asBaseline?: boolean;
  /** Receipts each station's dock makes during the outage (default BENCH_SPEC_FLEET_RECEIPTS, 25). */
  receiptsPerStation?: number;
}

/** A case's label: the start of each of its rows' names. */
export function fleetLabel(options: Pick<FleetCase, 'filters' | 'topology' | 'stations'>): string {
  return `${options.topology === 'hub' ? `site of ${options.stations} on a hub` : options.stations === STATIONS ? 'fleet' : `fleet of ${options.stations}`}, ${options.filters === 'ignored' ? 'page numbers only' : 'updated_since honoured'}`;
}

export async function fleetCase(options: FleetCase): Promise<BenchRow[]> {
  const { filters, topology, section: SECTION } = options;
  const STATIONS = options.stations;
  const PER_STATION = options.receiptsPerStation ?? RECEIPTS_PER_STATION;
  const label = fleetLabel(options);
  const sim = new Sim();
  const fake = await startSimFake(sim, { filters, rateLimit: { limit: 1_000, windowMs: HOUR, scope: 'account' } });
  const open = Math.min(UPSTREAM, STATIONS * PER_STATION + SAMPLES + 50);
  seedUpstream(fake, sim, UPSTREAM, { open, prefix: 'FLEET' });
  const start = sim.now;
  const stations: SimStation[] = [];
  let hub: SimHub | null = null;
  const log = (what: string) =>
    process.stderr.write(`[sync-fleet ${topology} ${STATIONS} ${filters}] ${new Date().toISOString()} sim +${minutes(sim.now - start)} ${what}\n`);
  try {
    if (topology === 'hub') {
      const siteHub = await SimHub.open(sim, fake);
      hub = siteHub;
      // The hub pulls the account first; its stations join it once it has.
      let hubPulled = false;
      siteHub.sync.afterRound = async () => {
        if (!hubPulled && (await pullDone(siteHub.sync))) hubPulled = true;
      };
      siteHub.sync.start();
      await sim.runUntil(start + 12 * HOUR, () => hubPulled);
      log('the hub pulled the account');
      for (let i = 0; i < STATIONS; i += 1) stations.push(await SimStation.openOn(`site${i}`, sim, await siteHub.memberSettings(`site${i}`), i + 1));
      siteHub.follow(stations);
    } else {
      for (let i = 0; i < STATIONS; i += 1) stations.push(await SimStation.open(`fleet${i}`, sim, fake, { seed: i + 1 }));
    }
    let watch: Watch | null = null;
    const pulled = new Set<number>();
    stations.forEach((station, i) => {
      station.afterRound = async () => {
        if (!pulled.has(i) && (await pullDone(station))) pulled.add(i);
        await watch?.check(sim, i, station);
      };
    });
    // The stations start 20 s apart and pull the account.
    for (const station of stations) {
      station.start();
      await sim.runUntil(sim.now + 20_000);
    }
    await sim.runUntil(start + 12 * HOUR, () => pulled.size === STATIONS);
    const firstPullMs = sim.now - start;
    const firstPullRequests = fake.requests.length;
    const firstPull429 = fake.requests.filter((r) => r.status === 429).length;
    log(`first pulls done (${firstPullRequests} requests)`);

    // Settle, then the outage: every station's dock receives its parcels while the upstream answers 503.
    await sim.runUntil(start + 2 * HOUR);
    const outageFrom = sim.now;
    const outageUntil = outageFrom + OUTAGE_MS;
    fake.modes.outage = { status: 503, retryAfterSeconds: RETRY_AFTER_S, until: outageUntil };
    const receipts: Array<{ station: number; trackingNumber: string }> = [];
    const firstOpen = UPSTREAM - open;
    watch = new Watch(STATIONS, true);
    for (let s = 0; s < STATIONS; s += 1) {
      const mine = Array.from({ length: PER_STATION }, (_, k) => tracking(firstOpen + s * PER_STATION + k));
      for (const trackingNumber of mine) {
        receipts.push({ station: s, trackingNumber });
        for (let other = 0; other < STATIONS; other += 1) if (other !== s) watch.expect(other, trackingNumber, outageUntil);
      }
      const station = stations[s] as SimStation;
      void sim.spawn(async () => {
        await sim.sleep(s * 7_000);
        for (const trackingNumber of mine) {
          await receive(sim, station, trackingNumber);
          await sim.sleep(Math.floor((OUTAGE_MS - 60_000) / PER_STATION));
        }
      });
    }
    await sim.runUntil(outageUntil);
    log('outage over');
    const duringOutage = requestsBetween(fake, outageFrom, outageUntil);
    const fleetWatch = watch;
    // Converged: every receipt on every station, and upstream (through a hub the stations have them long before the returns service does).
    const receiptTrackings = new Set(receipts.map((r) => r.trackingNumber));
    const allUpstream = () =>
      fake.packages(1).filter((p) => p.tracking_number !== null && receiptTrackings.has(p.tracking_number) && p.status === 'received').length ===
      receiptTrackings.size;
    await sim.runUntil(outageUntil + 6 * HOUR, () => fleetWatch.left() === 0 && allUpstream());
    // When the last receipt was upstream: its first PATCH to received that was answered.
    const receiptIds = new Set(
      fake
        .packages(1)
        .filter((p) => receipts.some((r) => r.trackingNumber === p.tracking_number))
        .map((p) => String(p.id)),
    );
    const patched = new Map<string, number>();
    for (const r of fake.requests) {
      const id = /\/return_packages\/(\d+)$/.exec(r.path)?.[1];
      if (r.method === 'PATCH' && id !== undefined && receiptIds.has(id) && r.status === 200 && r.body.includes('"received"') && !patched.has(id))
        patched.set(id, r.at + RTT_MS);
    }
    const upstreamAt = patched.size === receiptIds.size ? Math.max(...patched.values()) : 0;
    const convergedAt = fleetWatch.left() === 0 ? outageUntil + Math.max(0, ...fleetWatch.all()) : 0;
    const afterOutage = requestsBetween(fake, outageUntil, sim.now);
    const convergence = spread(fleetWatch.all());
    log(`converged (${fleetWatch.left()} left)`);

    // Idle: ten minutes to settle, then an hour counted for the whole fleet.
    watch = null;
    await sim.runUntil(sim.now + 10 * MINUTE);
    const idleFrom = sim.now;
    const cpuBefore = process.cpuUsage();
    await sim.runUntil(idleFrom + HOUR);
    const idleCpu = process.cpuUsage(cpuBefore);
    const idle = requestsBetween(fake, idleFrom, idleFrom + HOUR);
    const toHub = stations.flatMap((st) => st.sent.filter((r) => r.at >= idleFrom && r.at < idleFrom + HOUR));
    log('idle hour counted');

    // New upstream packages: one every ~10 minutes, timed on every station.
    const random = seeded(99);
    const fresh = new Watch(STATIONS, false);
    watch = fresh;
    for (let k = 0; k < SAMPLES; k += 1) {
      await sim.runUntil(sim.now + 7 * MINUTE + Math.floor(random() * 6 * MINUTE));
      const trackingNumber = `FLEETNEW${k}`;
      seedNewPackage(fake, sim, trackingNumber);
      for (let s = 0; s < STATIONS; s += 1) fresh.expect(s, trackingNumber, sim.now);
    }
    await sim.runUntil(sim.now + 2 * HOUR, () => fresh.left() === 0);
    log('new packages timed');

    // A receipt made at one station, timed until the others have it.
    const propagation = new Watch(STATIONS, true);
    watch = propagation;
    for (let k = 0; k < SAMPLES; k += 1) {
      await sim.runUntil(sim.now + 7 * MINUTE + Math.floor(random() * 6 * MINUTE));
      const s = k % STATIONS;
      const trackingNumber = tracking(UPSTREAM - 1 - k);
      await receive(sim, stations[s] as SimStation, trackingNumber);
      for (let other = 0; other < STATIONS; other += 1) if (other !== s) propagation.expect(other, trackingNumber, sim.now);
    }
    await sim.runUntil(sim.now + 3 * HOUR, () => propagation.left() === 0);
    log('receipt propagation timed');

    const all429 = fake.requests.filter((r) => r.status === 429).length;
    const perStationNew = fresh.latencies.map((l) => spread(l).max);
    const newSpread = spread(fresh.all());
    const propSpread = spread(propagation.all());
    const rows: BenchRow[] = [];
    const n = STATIONS;
    const idlePerStation = idle.length / n;
    // Each figure's row; beside the same figure of the baseline case when one ran (the site section).
    const add = (figure: string, { value, target, ok }: Pick<BenchRow, 'value' | 'target' | 'ok'>) =>
      rows.push({
        section: SECTION,
        name: `${label}: ${figure}`,
        ...(value !== undefined ? { value } : {}),
        ...(options.baselineLabel ? { baseline: `${options.baselineLabel}: ${figure}` } : {}),
        ...(options.asBaseline || target === undefined ? {} : { target, ok: ok ?? false }),
      });
    if (topology === 'direct' && !options.asBaseline) {
      const baselineName = `${label}: ${n} stations' receipts sent straight (baseline)`;
      rows.push({
        section: SECTION,
        name: baselineName,
        value: `${receipts.length} PATCHes, one a receipt, upstream ${fmt((receipts.length * RTT_MS) / 1000, 0)} s after the outage; the others see them at their next full read (every page: ${2 * Math.ceil(UPSTREAM / fake.modes.pageCap)} requests a station)`,
      });
    }
    add(`first pull of ${fmt(UPSTREAM)} packages on ${n} stations started 20 s apart`, {
      value: `${minutes(firstPullMs)}, ${firstPullRequests} requests${topology === 'hub' ? " to the returns service (the hub's)" : ''}, ${firstPull429} answered 429`,
    });
    add(`convergence after a ${OUTAGE_MS / MINUTE}-minute outage (503, Retry-After ${RETRY_AFTER_S} s) with ${PER_STATION} receipts at each of ${n} stations`, {
      value: `every receipt upstream ${upstreamAt ? minutes(upstreamAt - outageUntil) : '**not within 6 h**'} after the outage, on every station ${convergedAt ? minutes(convergedAt - outageUntil) : `**not within 6 h (${fleetWatch.left()} station-receipts missing)**`} (per station and receipt p50 ${minutes(convergence.p50)}${topology === 'hub' ? '; 0 s: the hub passed them on during the outage' : ''}); ${duringOutage.length} requests to the returns service during the outage (${byMethod(duringOutage)}), ${afterOutage.length} until converged`,
      target: 'every station within 10 min',
      ok: convergedAt !== 0 && convergedAt - outageUntil <= 10 * MINUTE,
    });
    add('429 answers, whole run', {
      value: `${all429} (first pulls ${firstPull429}, outage to convergence ${afterOutage.filter((r) => r.status === 429).length}, idle hour ${idle.filter((r) => r.status === 429).length}); ${fake.requests.length} requests to the returns service in all`,
    });
    const idleTarget = topology === 'hub' ? 60 : 120;
    add(`idle requests an hour to the returns service, ${n} stations on one account`, {
      value: `${idle.length} (${fmt(idlePerStation, 1)} a station)`,
      target: `≤ ${idleTarget}`,
      ok: idle.length <= idleTarget,
    });
    add(`time until a new upstream package is on every station (${SAMPLES} packages × ${n} stations)`, {
      value: `p50 ${minutes(newSpread.p50)}, max ${minutes(newSpread.max)}; worst per station ${perStationNew.map((ms) => fmt(ms / MINUTE, 1)).join(' / ')} min${fresh.left() ? `; **${fresh.left()} not there after 2 h**` : ''}`,
      target: '≤ 10 min',
      ok: fresh.left() === 0 && newSpread.max <= 10 * MINUTE,
    });
    // With page numbers alone an edit is seen only by re-reading its page: every page holding open
    // packages, every 10 minutes, on every station, is the floor of what the target costs.
    const openPages = (await listState((stations[0] ?? fail()).store.tables, 1, 'packages')).open_pages.length;
    const floor =
      filters === 'ignored' && topology === 'direct'
        ? `; within 10 min on page numbers alone needs each station to re-read the ${openPages} pages holding open packages every 10 minutes: ≥ ${fmt(openPages * 6 * n)} requests an hour for the fleet, over the idle target`
        : '';
    const propagated = propagation.all().sort((x, y) => x - y);
    const p95 = propagated[Math.max(0, Math.ceil(0.95 * propagated.length) - 1)] ?? 0;
    add(`time until a receipt made at one station is on the others (${SAMPLES} receipts × ${n - 1} stations)`, {
      value: `p50 ${minutes(propSpread.p50)}, p95 ${minutes(p95)}, max ${minutes(propSpread.max)}${propagation.left() ? `; **${propagation.left()} not there after 3 h**` : ''}${floor}`,
      ...(topology === 'hub'
        ? { target: 'p95 < 5 s, max < 15 s', ok: propagation.left() === 0 && p95 < 5_000 && propSpread.max < 15_000 }
        : { target: '≤ 10 min', ok: propagation.left() === 0 && propSpread.max <= 10 * MINUTE }),
    });
    if (topology === 'hub') {
      const cpuMs = (idleCpu.user + idleCpu.system) / 1000;
      const answeringMs = toHub.reduce((sum, r) => sum + r.ms, 0);
      rows.push({
        section: SECTION,
        name: `${label}: the stations' requests to the hub in an idle hour, and the hub's time per station`,
        value: `${fmt(toHub.length)} requests (${fmt(toHub.length / n, 1)} a station); answering them took ${fmt(answeringMs)} ms in all, ${fmt(answeringMs / n, 1)} ms an hour a station (${fmt((answeringMs / n / HOUR) * 100, 4)}% of a core); the whole simulation's CPU in that hour ${fmt(cpuMs)} ms`,
      });
    }
    const errors = [...stations, ...(hub ? [hub.sync] : [])].flatMap((s) => s.roundErrors);
    if (errors.length > 0)
      rows.push({
        section: SECTION,
        name: `${label}: rounds that threw`,
        value: `${errors.length}: ${[...new Set(errors)].slice(0, 3).join(' | ')}`,
        ok: false,
      });
    return rows;
  } finally {
    for (const station of stations) await station.close();
    await hub?.close();
    await fake.close();
  }
}
