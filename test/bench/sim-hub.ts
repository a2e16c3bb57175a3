import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stationAddresses } from '#shared/api/sync.ts';
import { createToken } from '../../electron/station/domain/tokens.ts';
import { openStation, type Station } from '../../electron/station/station.ts';
import { writeUpstreamSettings } from '../../electron/station/sync/settings.ts';
import type { UpstreamSettings } from '../../electron/station/sync/upstream/upstream-client.ts';
import type { FakeReturnsService } from '../sync/fake-returns-service.ts';
import { RTT_MS, type Sim, SimStation } from './sync-sim.ts';

/*
 * A site's hub in simulated time: a real station (its store, its HTTP API on loopback, on the
 * simulation's clock) whose own sync runs on the virtual clock against the spec-only fake, and whose
 * API the site's stations sync with. Following the hub's event stream is simulated: a change the hub
 * commits (a member's push, its own pull) makes every member pull `RTT_MS / 2` later, as an event
 * reaching a member over the site's network would — the follower's own code
 * (sync/upstream/upstream-events.ts) is measured in real processes by the `site` section's real part.
 */

export class SimHub {
  readonly station: Station;
  readonly origin: string;
  /** The hub's own sync with the returns service, on the virtual clock. */
  readonly sync: SimStation;
  private readonly sim: Sim;
  private readonly dataDir: string;
  private unfollow: (() => void) | null = null;

  private constructor(sim: Sim, station: Station, origin: string, dataDir: string, seed: number) {
    this.sim = sim;
    this.station = station;
    this.origin = origin;
    this.dataDir = dataDir;
    this.sync = SimStation.over('hub', sim, station.store, seed);
  }

  static async open(sim: Sim, fake: FakeReturnsService, seed = 1000): Promise<SimHub> {
    const dataDir = await mkdtemp(join(tmpdir(), 'bench-site-hub-'));
    const station = await openStation({
      dataDir,
      rendererDir: join(dataDir, 'no-renderer'),
      logLevel: 'silent',
      clock: sim.clock,
      // Its sync runs on the virtual clock (this.sync), not on the station's own timers.
      sync: false,
      // A site's members are many clients of one station: the API's per-token hourly limits are for integrations.
      rateLimits: { accountTokenPerHour: 10_000_000, anonymousPerHour: 10_000_000 },
    });
    const origin = await station.listen('127.0.0.1', 0);
    await writeUpstreamSettings(
      station.store,
      { returns_url: fake.returnsUrl, base_url: fake.baseUrl, token: fake.token([1]), accounts: [1] },
      sim.clock.now(),
    );
    return new SimHub(sim, station, origin, dataDir, seed);
  }

  /** A member's upstream settings: the hub's address and a station token of its own (as a join gives). */
  async memberSettings(name: string): Promise<UpstreamSettings> {
    const token = await createToken(this.station.store, this.station.ctx.clock, { scope: 'station', accountId: null, name: `member ${name}` });
    return { ...stationAddresses(this.origin), token: token.secret, accounts: [1] };
  }

  /** The members follow the hub: each change the hub commits to a return or package is a reason for each to pull. */
  follow(members: SimStation[]): void {
    this.unfollow?.();
    this.unfollow = this.station.store.subscribe((entries) => {
      if (!entries.some((e) => e.resource === 'return' || e.resource === 'return_package')) return;
      for (const member of members) member.toldOf(1, RTT_MS / 2);
    });
  }

  async close(): Promise<void> {
    this.unfollow?.();
    await this.sync.close();
    await this.station.close();
    await rm(this.dataDir, { recursive: true, force: true });
  }
}
