import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore, type StationStore } from '../../electron/station/store/index.ts';
import { samplePackage, sampleReturn, tempDataDir } from './fixtures.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

let store: StationStore;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const temp = await tempDataDir();
  cleanup = temp.cleanup;
  store = await openStore({ dataDir: temp.dir });
});
afterAll(async () => {
  await store.close();
  await cleanup();
});

// Counts are remembered between commits: every commit must make the next list see its changes.
it('list totals and counts follow every committed write, added, changed and deleted', async () => {
  const inTransit = () => store.listIds('return_packages', { account_id: 1, status: ['in_transit'] }).total;
  const returnId = await store.write(() => insidesOf(store).db.returns.add(sampleReturn(1, 1)));
  expect(inTransit()).toBe(0);

  const ids = await store.write(() =>
    insidesOf(store).db.return_packages.bulkAdd(
      [1, 2, 3].map((n) => samplePackage(1, returnId, n, { status: 'in_transit' })),
      { allKeys: true },
    ),
  );
  expect(inTransit()).toBe(3);
  expect(store.count('return_packages', { account_id: 1, status: ['in_transit'] })).toBe(3);

  const first = await insidesOf(store).db.return_packages.get(ids[0] ?? 0);
  if (!first) throw new Error('the first package was not stored');
  await store.write(() => insidesOf(store).db.return_packages.put({ ...first, status: 'delivered' }));
  expect(inTransit()).toBe(2);
  expect(store.count('return_packages', { status: ['delivered'] })).toBe(1);

  await store.write(() => insidesOf(store).db.return_packages.delete(ids[1] ?? 0));
  expect(inTransit()).toBe(1);
  expect(store.listIds('return_packages', { account_id: 1, status: ['in_transit'] }).ids).toEqual([ids[2]]);
});
