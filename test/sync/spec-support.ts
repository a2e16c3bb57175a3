import { afterAll, beforeAll } from 'vitest';
import { rmSync } from 'node:fs';
import type { ApiClient } from '#shared/api/client.ts';
import { type FakeModes, type FakeReturnsService, startFakeReturnsService, type StoredReturn } from './fake-returns-service.ts';
import { runCli, tempDir } from './support.ts';

/*
 * Sync tests against the fake returns service (`fake-returns-service.ts`, written from the spec text
 * alone): the station under test is driven through its real commands, the upstream is what the spec
 * shows and no more, in the modes each test asks for.
 */

export interface SpecRig {
  readonly fake: FakeReturnsService;
  readonly dataDir: string;
}

/** Starts a fake returns service before the file's tests (modes as given) and a data directory for the station. */
export function useSpecUpstream(options: { accounts: number[]; dataDirPrefix: string; modes?: Partial<FakeModes>; separateAddresses?: boolean }): SpecRig {
  const dataDir = tempDir(options.dataDirPrefix);
  let fake: FakeReturnsService | undefined;
  beforeAll(async () => {
    fake = await startFakeReturnsService({
      accounts: options.accounts,
      ...(options.modes ? { modes: options.modes } : {}),
      ...(options.separateAddresses ? { separateAddresses: true } : {}),
    });
  });
  afterAll(async () => {
    await fake?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    get fake() {
      if (!fake) throw new Error('The fake returns service is not started yet (read it inside a test).');
      return fake;
    },
  };
}

/** Points a (stopped) station's data directory at the fake, by the spec's two addresses. */
export async function setSpecUpstream(dataDir: string, fake: FakeReturnsService, accounts: number[]): Promise<void> {
  const args = [
    'upstream',
    'set',
    '--returns-url',
    fake.returnsUrl,
    '--base-url',
    fake.baseUrl,
    '--token-stdin',
    ...accounts.flatMap((a) => ['--account', String(a)]),
    '--data-dir',
    dataDir,
  ];
  const result = await runCli(args, { input: `${fake.defaultToken}\n` });
  if (result.status !== 0) throw new Error(`upstream set failed: ${result.stderr}`);
}

/** A return upstream with one line (SKU `SPEC-SKU`), as the back office would make it. */
export function seedSpecReturn(fake: FakeReturnsService, account: number, email = 'spec@example.com'): StoredReturn {
  return fake.seedReturn(account, {
    email,
    receive_by: '2030-01-31',
    total_price: 20,
    currency: 'EUR',
    weight: 1,
    weight_unit: 'kg',
    reason_of_return: 'Too small',
    length: 10,
    width: 10,
    height: 10,
    dimension_unit: 'cm',
    return_line_items: [{ quantity: 2, unreceived_quantity: 2, name: 'Shirt', price: 10, currency: 'EUR', merchant_sku: 'SPEC-SKU' }],
  });
}

/** Upstream packages per tracking number (the spec shows no uniqueness: a duplicate counts 2). */
export function upstreamCounts(fake: FakeReturnsService, account: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const pkg of fake.packages(account)) counts.set(pkg.tracking_number ?? '', (counts.get(pkg.tracking_number ?? '') ?? 0) + 1);
  return counts;
}

/** Every package the station holds for an account, by tracking number (fails on a duplicate). */
export async function stationTracking(api: ApiClient, account: number): Promise<Map<string, { id: number; status: string; estimated_arrival: string | null }>> {
  const byTracking = new Map<string, { id: number; status: string; estimated_arrival: string | null }>();
  for (let page = 1; ; page += 1) {
    const answer = await api.listPackages(account, { page, per_page: 250, sort: 'id' });
    for (const pkg of answer.data) {
      if (byTracking.has(pkg.tracking_number)) throw new Error(`Duplicate package on the station: ${pkg.tracking_number}`);
      byTracking.set(pkg.tracking_number, { id: pkg.id, status: pkg.status, estimated_arrival: pkg.estimated_arrival });
    }
    if (page >= answer.meta.total_pages) return byTracking;
  }
}

/** The `GET`s the station sent to a list since `from` (an index into the fake's request log). */
export function listReads(
  fake: FakeReturnsService,
  from = 0,
  what: 'return_packages' | 'returns' = 'return_packages',
): Array<{ query: Record<string, string> }> {
  return fake.requests.slice(from).filter((r) => r.method === 'GET' && r.path.endsWith(`/${what}`));
}
