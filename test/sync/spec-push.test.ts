import { describe, expect, it } from 'vitest';
import { seedSpecReturn, setSpecUpstream, upstreamCounts, useSpecUpstream } from './spec-support.ts';
import { killServeAtRandom, RETURN_BODY, startLocal, syncOnce, waitFor } from './support.ts';

/*
 * Pushes to an upstream without idempotency (the spec shows none) that loses answers after it
 * committed: a lost create is found at the newest end of the list before anything is sent again,
 * so nothing is created twice — also across SIGKILLs in the middle of pushes and pulls.
 */

const ACCOUNT = 1;

describe('lost create answers, no idempotency, filters ignored', () => {
  const rig = useSpecUpstream({ accounts: [ACCOUNT], dataDirPrefix: 'spec-push-' });

  it('makes each of 20 packages and 4 returns exactly once when half the create answers are lost', async () => {
    const { fake, dataDir } = rig;
    const ret = seedSpecReturn(fake, ACCOUNT);
    for (let i = 0; i < 150; i += 1) fake.seedPackage(ACCOUNT, { return_id: ret.id, tracking_number: `OLD-${i}`, status: 'received' });
    await setSpecUpstream(dataDir, fake, [ACCOUNT]);
    expect((await syncOnce(dataDir)).status).toBe(0);
    let creates = 0;
    fake.modes.loseAnswer = (req) => req.method === 'POST' && (req.path.endsWith('/return_packages') || req.path.endsWith('/returns')) && creates++ % 2 === 0;

    const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '300' });
    try {
      const pulled = (await local.api.listAccountReturns(ACCOUNT)).data[0];
      for (let i = 0; i < 20; i += 1) await local.api.createPackage(ACCOUNT, { return_id: pulled?.id ?? 0, tracking_number: `LOST-${i}` });
      for (let i = 0; i < 4; i += 1) await local.api.createReturn({ ...RETURN_BODY, account_id: ACCOUNT, email: `lost-${i}@example.com` });
      await waitFor('every change taken', async () => (await local.api.station()).sync.pending_changes === 0, 60_000);
    } finally {
      await local.station.stop();
    }
    const counts = upstreamCounts(fake, ACCOUNT);
    for (let i = 0; i < 20; i += 1) expect(counts.get(`LOST-${i}`), `LOST-${i}`).toBe(1);
    expect(fake.packages(ACCOUNT).length).toBe(170);
    const emails = fake.returns(ACCOUNT).map((r) => r.email);
    for (let i = 0; i < 4; i += 1)
      expect(
        emails.filter((e) => e === `lost-${i}@example.com`),
        `lost-${i}`,
      ).toHaveLength(1);
    expect(creates).toBeGreaterThanOrEqual(24);
    fake.modes.loseAnswer = null;
  }, 180_000);

  it('creates nothing twice and loses nothing across SIGKILLs in the middle of pushes of lost creates', async () => {
    const { fake, dataDir } = rig;
    const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '300' });
    const pulled = (await local.api.listAccountReturns(ACCOUNT)).data.find((r) => r.email === 'spec@example.com');
    // Offline while the dock works: 30 parcels wait.
    fake.modes.outage = { status: 503, until: Number.MAX_SAFE_INTEGER };
    for (let i = 0; i < 30; i += 1) await local.api.createPackage(ACCOUNT, { return_id: pulled?.id ?? 0, tracking_number: `KILL-${i}` });
    await local.station.stop();
    fake.modes.outage = null;
    // Back online, slow, every create answer lost: the station is killed at random points of its rounds.
    fake.modes.latencyMs = 60;
    fake.modes.loseAnswer = (req) => req.method === 'POST';
    await killServeAtRandom(dataDir, { kills: 4, minMs: 400, spreadMs: 1500 });
    fake.modes.loseAnswer = null;
    fake.modes.latencyMs = 0;
    const result = await syncOnce(dataDir);
    expect(result.stdout).toContain('waiting: 0 changes');
    const counts = upstreamCounts(fake, ACCOUNT);
    for (let i = 0; i < 30; i += 1) expect(counts.get(`KILL-${i}`), `KILL-${i}`).toBe(1);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  }, 240_000);
});

describe('a first pull killed part-way', () => {
  const rig = useSpecUpstream({ accounts: [ACCOUNT], dataDirPrefix: 'spec-kill-pull-', modes: { pageCap: 25, latencyMs: 40 } });

  it('resumes after SIGKILLs and ends with every package once', async () => {
    const { fake, dataDir } = rig;
    const returns = Array.from({ length: 5 }, (_, i) => seedSpecReturn(fake, ACCOUNT, `pull-${i}@example.com`));
    for (let i = 0; i < 400; i += 1) fake.seedPackage(ACCOUNT, { return_id: returns[i % 5]?.id ?? 0, tracking_number: `PULL-${i}`, status: 'in_transit' });
    await setSpecUpstream(dataDir, fake, [ACCOUNT]);
    await killServeAtRandom(dataDir, { kills: 3, minMs: 500, spreadMs: 1000 });
    fake.modes.latencyMs = 0;
    const result = await syncOnce(dataDir);
    expect(result.status).toBe(0);
    const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '60000' });
    try {
      const seen = new Set<string>();
      for (let page = 1; ; page += 1) {
        const answer = await local.api.listPackages(ACCOUNT, { page, per_page: 250 });
        for (const pkg of answer.data) {
          expect(seen.has(pkg.tracking_number), pkg.tracking_number).toBe(false);
          seen.add(pkg.tracking_number);
        }
        if (page >= answer.meta.total_pages) break;
      }
      expect(seen.size).toBe(400);
    } finally {
      await local.station.stop();
    }
    // Nothing went up: the station made nothing.
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  }, 180_000);
});
