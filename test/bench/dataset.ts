import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../electron/station/domain/clock.ts';
import { seedCatalog } from '../../electron/station/domain/catalog.ts';
import { createToken } from '../../electron/station/domain/tokens.ts';
import { openStore, type StationStore } from '../../electron/station/store/index.ts';
import { seed } from './store-bench.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/** The seed writes raw records; the API keeps each package's line-item count, so fill it in. */
async function countLineItems(store: StationStore): Promise<void> {
  const counts = new Map<number, number>();
  await insidesOf(store).db.package_line_items.each((item) => counts.set(item.return_package_id, (counts.get(item.return_package_id) ?? 0) + 1));
  const all = await insidesOf(store).db.return_packages.toArray();
  for (let start = 0; start < all.length; start += 5_000) {
    const chunk = all.slice(start, start + 5_000).map((pkg) => ({ ...pkg, line_items_count: counts.get(pkg.id) ?? 0 }));
    await store.write((t) => t.return_packages.bulkPut(chunk));
  }
}

export interface BenchDataset {
  dataDir: string;
  packages: number;
  /** An account token of account 1 (a quarter of the packages). */
  accountToken: string;
  stationToken: string;
}

/**
 * A data directory holding `packages` realistic return packages (with returns and inspected
 * items) across accounts 1–4, written through the real store, for the station process to open.
 */
export async function buildDataset(packages: number): Promise<BenchDataset> {
  const dataDir = await mkdtemp(join(tmpdir(), `bench-${packages}-`));
  const store = await openStore({ dataDir });
  try {
    await seedCatalog(store);
    await seed(store, packages);
    await countLineItems(store);
    const account = await createToken(store, systemClock, { scope: 'account', accountId: 1, name: 'bench integration' });
    for (const id of [2, 3, 4]) await createToken(store, systemClock, { scope: 'account', accountId: id, name: 'bench' });
    const station = await createToken(store, systemClock, { scope: 'station', accountId: null, name: 'bench ui' });
    return { dataDir, packages, accountToken: account.secret, stationToken: station.secret };
  } finally {
    await store.close();
  }
}
