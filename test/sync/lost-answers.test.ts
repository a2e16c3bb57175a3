import { beforeAll, expect, it } from 'vitest';
import { killServeAtRandom, packagesByTracking, RETURN_BODY, setUpstream, startLocal, syncOnce, tracking, useProxiedUpstream } from './support.ts';

/*
 * No duplicates where the upstream returns service promises no idempotency: the proxy strips Idempotency-Key,
 * the upstream's clock is an hour behind the station's, every create's answer is lost once after
 * the upstream committed, and serve is SIGKILLed at random points of its rounds and restarted.
 */

const ACCOUNT = 1001;
const PARCELS = 8;
const rig = useProxiedUpstream({ accounts: [ACCOUNT], dataDirPrefix: 'sync-lost-', env: { RETURNS_STATION_CLOCK_OFFSET: '-1h' } });

beforeAll(() => {
  rig.proxy.stripIdempotencyKey = true;
});

/** Registers walk-in parcels while the upstream is unreachable: everything waits in the outbox. */
async function registerWalkIns(count: number, prefix: string): Promise<string[]> {
  const { proxy, dataDir } = rig;
  proxy.offline = true;
  const local = await startLocal(dataDir);
  const numbers: string[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const ret = await local.api.createReturn({ ...RETURN_BODY, email: `${prefix}-${i}@example.com`, account_id: ACCOUNT });
      const pkg = await local.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking(prefix), status: 'delivered' });
      await local.api.createLineItem(ACCOUNT, pkg.id, { return_line_item_id: ret.return_line_items[0]?.id ?? null, quantity: 1, condition: 'good' });
      if (i % 2 === 0) await local.api.updatePackage(ACCOUNT, pkg.id, { status: 'received', notes: 'ok' });
      numbers.push(pkg.tracking_number);
    }
  } finally {
    await local.station.stop();
    proxy.offline = false;
  }
  return numbers;
}

it('loses no change and duplicates nothing when every create answer is lost once', async () => {
  const { upstream, proxy, dataDir } = rig;
  await setUpstream(dataDir, proxy.url, upstream.syncToken, [ACCOUNT]);
  const numbers = await registerWalkIns(PARCELS, 'LOST');
  const lostOnce = new Set<string>();
  proxy.loseAnswer = ({ method, body }) => {
    if (method !== 'POST' || lostOnce.has(body)) return false;
    lostOnce.add(body);
    return true;
  };
  const result = await syncOnce(dataDir);
  proxy.loseAnswer = null;
  expect(result.status, result.stdout + result.stderr).toBe(0);
  expect(result.stdout).toMatch(/adopted after a lost answer/);
  expect(proxy.requests.filter((r) => r.status === 'lost').length).toBe(3 * PARCELS); // return, package, line item
  expect(proxy.requests.every((r) => r.idempotencyKey === null || r.method === 'POST')).toBe(true);

  const theirs = await packagesByTracking(upstream.api, ACCOUNT); // throws on a duplicate
  for (const trackingNumber of numbers) {
    const twin = theirs.get(trackingNumber);
    expect(twin?.status, trackingNumber).toMatch(/^(received|delivered)$/);
    expect((await upstream.api.getPackage(ACCOUNT, twin?.id ?? 0)).line_items, trackingNumber).toHaveLength(1);
  }
  expect(theirs.size).toBe(PARCELS);
  expect((await upstream.api.listAccountReturns(ACCOUNT, { per_page: 250 })).meta.total_count).toBe(PARCELS);
}, 120_000);

it('loses no change and duplicates nothing across SIGKILLs at random points of sync rounds', async () => {
  const { upstream, proxy, dataDir } = rig;
  const numbers = await registerWalkIns(PARCELS, 'KILL');
  proxy.delayMs = 40; // rounds last long enough to be cut
  const before = proxy.requests.length;
  await killServeAtRandom(dataDir, { minMs: 150, spreadMs: 500 });
  proxy.delayMs = 0;
  expect(proxy.requests.length).toBeGreaterThan(before); // the kills did cut rounds under way
  const result = await syncOnce(dataDir);
  expect(result.status, result.stdout + result.stderr).toBe(0);

  const theirs = await packagesByTracking(upstream.api, ACCOUNT); // throws on a duplicate
  for (const trackingNumber of numbers) expect(theirs.has(trackingNumber), trackingNumber).toBe(true);
  expect(theirs.size).toBe(2 * PARCELS);
  expect((await upstream.api.listAccountReturns(ACCOUNT, { per_page: 250 })).meta.total_count).toBe(2 * PARCELS);

  // The station agrees: every package is there once, received ones received upstream too.
  const check = await startLocal(dataDir);
  try {
    const mine = await packagesByTracking(check.api, ACCOUNT);
    for (const [trackingNumber, pkg] of mine) expect(theirs.get(trackingNumber)?.status, trackingNumber).toBe(pkg.status);
  } finally {
    await check.station.stop();
  }
}, 180_000);
