import { afterEach, expect, it } from 'vitest';
import { createViewCache, jsonOf, type ViewCache, type ViewSource } from '../../electron/station/api/view-cache.ts';
import { openStore, type StationStore } from '../../electron/station/store/index.ts';
import { sampleLineItem, samplePackage, sampleReturn, tempDataDir } from '../store/fixtures.ts';

/*
 * The view cache against the real store's commits, for the changes the API's own writes never
 * make alone (they also write the package): a line item or media file written by itself, a range
 * delete, a shared table, a view read across a change, and its bound.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function openWithPackages(count: number): Promise<{ store: StationStore; views: ViewCache; packageIds: number[]; returnId: number }> {
  const { dir, cleanup } = await tempDataDir();
  const store = await openStore({ dataDir: dir, hotSet: { sweepMs: 0 } });
  const views = createViewCache(store, 3);
  cleanups.push(async () => {
    views.close();
    await store.close();
    await cleanup();
  });
  const { packageIds, returnId } = await store.write(async (t) => {
    const returnId = await t.returns.add(sampleReturn(1, 1) as never);
    const packageIds: number[] = [];
    for (let n = 1; n <= count; n += 1) packageIds.push(await t.return_packages.add(samplePackage(1, returnId, n) as never));
    return { packageIds, returnId };
  });
  return { store, views, packageIds, returnId };
}

/** Remembers a stand-in view of package `id` made from the package and `lineItemIds`. */
function rememberPackage(views: ViewCache, id: number, lineItemIds: number[] = []): void {
  const sources: ViewSource[] = [['return_packages', id], ...lineItemIds.map((l): ViewSource => ['package_line_items', l])];
  views.remember('return_package', id, { accountId: 1, origin: 'http://127.0.0.1:1', json: jsonOf({ id, lineItemIds }) }, sources, views.mark());
}

it('forgets a package view when a line item joins it, changes or goes, and keeps the others', async () => {
  const { store, views, packageIds } = await openWithPackages(2);
  const [first = 0, second = 0] = packageIds;
  rememberPackage(views, first);
  rememberPackage(views, second);

  const itemId = await store.write((t) => t.package_line_items.add(sampleLineItem(first, 1) as never));
  expect(views.get('return_package', first)).toBeUndefined();
  expect(views.get('return_package', second)?.json).toBe(JSON.stringify({ id: second, lineItemIds: [] }));

  rememberPackage(views, first, [itemId]);
  await store.write((t) => t.package_line_items.update(itemId, { notes: 'torn' }));
  expect(views.get('return_package', first)).toBeUndefined();

  rememberPackage(views, first, [itemId]);
  await store.write((t) => t.package_line_items.delete(itemId));
  expect(views.get('return_package', first)).toBeUndefined();
  expect(views.get('return_package', second)).toBeDefined();
});

it('forgets every view on a change to a shared table or a range delete', async () => {
  const { store, views, packageIds, returnId } = await openWithPackages(2);
  for (const id of packageIds) rememberPackage(views, id);
  views.remember('return', returnId, { accountId: 1, origin: null, json: jsonOf({ returnId }) }, [['returns', returnId]], views.mark());
  expect(views.size).toBe(3);
  await store.write((t) => t.carriers.add({ code: 'new', name: 'New carrier', service: 'ground' }));
  expect(views.size).toBe(0);

  for (const id of packageIds) rememberPackage(views, id);
  await store.write((t) => t.media_files.clear());
  expect(views.size).toBe(0);

  views.remember('return', returnId, { accountId: 1, origin: null, json: jsonOf({ returnId }) }, [['returns', returnId]], views.mark());
  await store.write((t) => t.returns.update(returnId, { email: 'changed@example.com' }));
  expect(views.get('return', returnId)).toBeUndefined();
});

it('does not keep a view read across a change, and holds at most its bound', async () => {
  const { store, views, packageIds } = await openWithPackages(5);
  const [first = 0] = packageIds;
  const mark = views.mark();
  await store.write((t) => t.return_packages.update(first, { notes: 'meanwhile' }));
  views.remember('return_package', first, { accountId: 1, origin: null, json: jsonOf({ stale: true }) }, [['return_packages', first]], mark);
  expect(views.get('return_package', first)).toBeUndefined();

  for (const id of packageIds) rememberPackage(views, id);
  expect(views.size).toBe(3);
  expect(views.get('return_package', first)).toBeUndefined();
  expect(views.get('return_package', packageIds[4] ?? 0)).toBeDefined();
  // A forgotten (evicted) view leaves nothing behind that could forget a newer one by mistake.
  await store.write((t) => t.return_packages.update(first, { notes: 'again' }));
  expect(views.size).toBe(3);
});

it('holds at most its bytes whatever the size of its views, and keeps no view larger than them alone', () => {
  // No commits come: only the bound is at work.
  const store = { onChange: () => () => undefined } as unknown as StationStore;
  // Room for about two views of 2,000 characters with one source (each ≈ 2,500 bytes counted).
  const views = createViewCache(store, 100, 6_000);
  const remember = (id: number, length: number) =>
    views.remember(
      'return_package',
      id,
      { accountId: 1, origin: null, json: jsonOf({ id, text: 'x'.repeat(length) }) },
      [['return_packages', id]],
      views.mark(),
    );
  remember(1, 2_000);
  remember(2, 2_000);
  expect(views.size).toBe(2);
  remember(3, 2_000);
  // The oldest went to make room.
  expect([1, 2, 3].map((id) => views.get('return_package', id) !== undefined)).toEqual([false, true, true]);
  expect(views.bytes).toBeLessThanOrEqual(6_000);
  // Small views fill what is left; a view larger than the whole budget is answered but not kept.
  remember(4, 10);
  expect(views.size).toBe(3);
  remember(5, 7_000);
  expect(views.get('return_package', 5)).toBeUndefined();
  expect(views.size).toBe(3);
  // Forgetting gives its bytes back.
  views.close();
  expect(views.bytes).toBe(0);
});
