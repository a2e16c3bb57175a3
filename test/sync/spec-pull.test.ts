import { describe, expect, it } from 'vitest';
import { ApiClient } from '#shared/api/client.ts';
import { join } from 'node:path';
import { createToken } from '../../electron/station/domain/tokens.ts';
import { openStation } from '../../electron/station/station.ts';
import { type FakeReturnsService } from './fake-returns-service.ts';
import { listReads, seedSpecReturn, setSpecUpstream, stationTracking, upstreamCounts, useSpecUpstream } from './spec-support.ts';
import { runCli, syncOnce, tempDir } from './support.ts';

/*
 * Pull against an upstream that does only what the spec shows: `page` and `per_page`, every other
 * query parameter ignored, at most 100 (or 250) records a page, in id order. Everything arrives
 * with page numbers alone, later rounds read the newest end and the open pages, and a record the
 * station cannot store is listed without blocking its page.
 */

const ACCOUNT = 1;

function seedPackages(fake: FakeReturnsService, count: number, prefix: string): void {
  const returns = Array.from({ length: 10 }, (_, i) => seedSpecReturn(fake, ACCOUNT, `${prefix.toLowerCase()}-${i}@example.com`));
  // Made over the last `count` seconds, as a back office would (not all in one millisecond: a list
  // whose records all share one updated_at cannot show whether updated_since is honoured).
  const start = Date.now() - count * 1000;
  for (let i = 0; i < count; i += 1) {
    const at = new Date(start + i * 1000).toISOString();
    fake.seedPackage(ACCOUNT, {
      return_id: returns[i % returns.length]?.id ?? 0,
      tracking_number: `${prefix}-${String(i + 1).padStart(4, '0')}`,
      status: 'in_transit',
      weight: 1,
      weight_unit: 'kg',
      created_at: at,
      updated_at: at,
    });
  }
}

/** What the station holds and shows, read in-process with its sync off (so reading counts no upstream request). */
async function overview(dataDir: string) {
  const station = await openStation({ dataDir, rendererDir: join(dataDir, 'no-renderer'), logLevel: 'silent', sync: false, hotSweepMs: 0 });
  try {
    const origin = await station.listen('127.0.0.1', 0);
    const token = (await createToken(station.store, station.ctx.clock, { scope: 'station', accountId: null, name: 'spec test' })).secret;
    const api = new ApiClient({ baseUrl: origin, token });
    return { sync: await api.syncOverview(), tracking: await stationTracking(api, ACCOUNT) };
  } finally {
    await station.close();
  }
}

describe('an upstream of page numbers alone (100 a page, filters ignored)', () => {
  const rig = useSpecUpstream({ accounts: [ACCOUNT], dataDirPrefix: 'spec-pull-' });

  it('pulls 600 packages by pages, then finds a new one and an edit of #550 in a few requests', async () => {
    const { fake, dataDir } = rig;
    seedPackages(fake, 600, 'SPEC');
    await setSpecUpstream(dataDir, fake, [ACCOUNT]);
    const first = await syncOnce(dataDir);
    expect(first.stdout).toContain('pull complete');
    expect(first.status).toBe(0);
    const reads = listReads(fake);
    // 6 pages of 100 in the full read, then a look at updated_since (ignored here) and nothing else.
    expect(reads.length).toBeLessThanOrEqual(8);
    expect(reads.some((r) => r.query.tracking_number !== undefined)).toBe(false);
    let seen = await overview(dataDir);
    expect(seen.tracking.size).toBe(600);
    expect(seen.sync.lists.find((l) => l.resource === 'return_packages')).toMatchObject({ page_size: 100, order: 'id_asc', changes: 'ignored', total: 600 });

    // Later: a package created upstream, and an edit of an open one deep in the list.
    const from = fake.requests.length;
    const returnId = fake.returns(ACCOUNT)[0]?.id ?? 0;
    fake.seedPackage(ACCOUNT, { return_id: returnId, tracking_number: 'SPEC-NEW', status: 'in_transit' });
    const target = fake.packages(ACCOUNT)[549];
    fake.updatePackage(ACCOUNT, target?.id ?? 0, { estimated_arrival: '2031-05-05T10:00:00.000Z' });
    const second = await syncOnce(dataDir);
    expect(second.status).toBe(0);
    seen = await overview(dataDir);
    expect(seen.tracking.get('SPEC-NEW')).toBeDefined();
    expect(seen.tracking.get(target?.tracking_number ?? '')?.estimated_arrival).toBe('2031-05-05T10:00:00.000Z');
    expect(seen.tracking.size).toBe(601);
    // The newest end (one page) and the six open pages, not the whole list again and again.
    expect(listReads(fake, from).length).toBeLessThanOrEqual(9);
  }, 120_000);

  it('keeps every other record of a page with a status, fields and values it does not know, and lists the one it cannot store', async () => {
    const { fake, dataDir } = rig;
    fake.modes.unknownStatuses = true;
    fake.modes.extraFields = true;
    const returnId = fake.returns(ACCOUNT)[1]?.id ?? 0;
    const odd = fake.seedPackage(ACCOUNT, { return_id: returnId, tracking_number: 'SPEC-ODD', status: 'returned_to_sender' });
    fake.seedPackage(ACCOUNT, { return_id: returnId, tracking_number: 'SPEC-PLAIN', status: 'in_transit', weight_unit: 'stone' });
    const known = fake.packages(ACCOUNT)[10];
    fake.updatePackage(ACCOUNT, known?.id ?? 0, { status: 'lost_in_space' });
    const result = await syncOnce(dataDir);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('upstream records not stored: 1');
    const seen = await overview(dataDir);
    expect(seen.tracking.get('SPEC-PLAIN')).toBeDefined();
    expect(seen.tracking.has('SPEC-ODD')).toBe(false);
    // A known package in an unknown status keeps its station status.
    expect(seen.tracking.get(known?.tracking_number ?? '')?.status).toBe('in_transit');
    const messages = seen.sync.issues.map((i) => `${i.upstream_id}: ${i.message}`);
    expect(messages).toContainEqual(`${odd.id}: upstream package ${odd.id}: its status is unknown to this station: the package is not stored`);
    expect(messages.some((m) => m.includes('weight_unit `stone` is unknown to this station'))).toBe(true);
    expect(messages.some((m) => m.includes('status `lost_in_space` is unknown to this station'))).toBe(true);
    // Said once, not once a round.
    await syncOnce(dataDir);
    const again = await overview(dataDir);
    expect(again.sync.issues.length).toBe(seen.sync.issues.length);
    fake.modes.unknownStatuses = false;
    fake.modes.extraFields = false;
  }, 120_000);

  it('shows what it found out about the upstream in `upstream show`', async () => {
    const shown = await runCli(['upstream', 'show', '--data-dir', rig.dataDir]);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toMatch(/account 1 packages: \d+ records, 100 a page, by id, oldest first, updated_since ignored/);
  });
});

describe('an upstream that allows 250 a page, lists newest first and ignores updated_since', () => {
  const rig = useSpecUpstream({ accounts: [ACCOUNT], dataDirPrefix: 'spec-pull-250-', modes: { pageCap: 250, order: 'id_desc' } });

  it('reads 600 in three pages and later only the first page for new ones', async () => {
    const { fake, dataDir } = rig;
    seedPackages(fake, 600, 'DESC');
    await setSpecUpstream(dataDir, fake, [ACCOUNT]);
    const first = await syncOnce(dataDir);
    expect(first.status).toBe(0);
    expect(listReads(fake).length).toBeLessThanOrEqual(4);
    const from = fake.requests.length;
    fake.seedPackage(ACCOUNT, { return_id: fake.returns(ACCOUNT)[0]?.id ?? 0, tracking_number: 'DESC-NEW', status: 'in_transit' });
    expect((await syncOnce(dataDir)).status).toBe(0);
    const seen = await overview(dataDir);
    expect(seen.tracking.size).toBe(601);
    expect(seen.sync.lists.find((l) => l.resource === 'return_packages')).toMatchObject({ page_size: 250, order: 'id_desc' });
    // The newest end is page 1 here; the open pages are the three pages.
    const reads = listReads(fake, from);
    expect(reads[0]?.query.page).toBe('1');
    expect(reads.length).toBeLessThanOrEqual(5);
  }, 120_000);
});

describe('an upstream that honours updated_since and sort, 25 a page', () => {
  const rig = useSpecUpstream({ accounts: [ACCOUNT], dataDirPrefix: 'spec-pull-feed-', modes: { filters: 'honoured', pageCap: 25 } });

  it('uses the change feed once it saw it honoured, and drops it when an answer contradicts it', async () => {
    const { fake, dataDir } = rig;
    seedPackages(fake, 120, 'FEED');
    await setSpecUpstream(dataDir, fake, [ACCOUNT]);
    expect((await syncOnce(dataDir)).status).toBe(0);
    let seen = await overview(dataDir);
    expect(seen.tracking.size).toBe(120);
    expect(seen.sync.lists.find((l) => l.resource === 'return_packages')?.changes).toBe('honoured');

    // An edit arrives through updated_since, without reading the list by pages.
    const from = fake.requests.length;
    const edited = fake.packages(ACCOUNT)[5];
    fake.updatePackage(ACCOUNT, edited?.id ?? 0, { estimated_arrival: '2032-01-01T00:00:00.000Z' });
    expect((await syncOnce(dataDir)).status).toBe(0);
    const reads = listReads(fake, from);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => r.query.updated_since !== undefined)).toBe(true);
    seen = await overview(dataDir);
    expect(seen.tracking.get(edited?.tracking_number ?? '')?.estimated_arrival).toBe('2032-01-01T00:00:00.000Z');

    // The upstream stops honouring the filter: the first answer with an old record drops the feed, and nothing is lost.
    fake.modes.filters = 'ignored';
    fake.seedPackage(ACCOUNT, { return_id: fake.returns(ACCOUNT)[0]?.id ?? 0, tracking_number: 'FEED-AFTER', status: 'in_transit' });
    await syncOnce(dataDir);
    expect((await syncOnce(dataDir)).status).toBe(0);
    seen = await overview(dataDir);
    expect(seen.tracking.get('FEED-AFTER')).toBeDefined();
    expect(seen.tracking.size).toBe(121);
    const packages = seen.sync.lists.find((l) => l.resource === 'return_packages');
    expect(packages?.changes).toBe('ignored');
    expect(packages?.contradiction).toMatch(/was listed for updated_since|out of order/);
    expect(upstreamCounts(fake, ACCOUNT).size).toBe(121);
  }, 120_000);
});

describe('sync --once exit codes', () => {
  it('says an unreachable upstream with its own code', async () => {
    const dataDir = tempDir('spec-exit-');
    const set = await runCli([
      'upstream',
      'set',
      '--returns-url',
      'http://127.0.0.1:9',
      '--base-url',
      'http://127.0.0.1:9/base',
      '--token',
      'x',
      '--account',
      '1',
      '--data-dir',
      dataDir,
    ]);
    expect(set.status).toBe(0);
    const result = await syncOnce(dataDir);
    expect(result.status).toBe(5);
    expect(result.stdout).toContain('pull not done (upstream unreachable)');
  }, 120_000);
});
