import { afterEach, beforeEach, expect, it } from 'vitest';
import { systemClock } from '../../electron/station/domain/clock.ts';
import { loadConfigCache } from '../../electron/station/domain/config-cache.ts';
import type { DomainContext } from '../../electron/station/domain/context.ts';
import { createPackage } from '../../electron/station/domain/packages.ts';
import { runCoalescedScript } from '../../electron/station/domain/script-batches.ts';
import { ContractError } from '../../electron/station/errors.ts';
import { CommitFailedError, openStore, type StationStore } from '../../electron/station/store/index.ts';
import { sampleReturn, tempDataDir } from './fixtures.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * Coalesced scripts (electron/station/domain/script-batches.ts): scripts that arrive while a batch
 * runs in the engine share the next write; a script that fails makes its batch run again one write
 * each, so it fails alone. Across a reopen, what was acknowledged is there and nothing else.
 */

let dir: string;
let cleanup: () => Promise<void>;
let failCommit = false;
let store: StationStore;
let ctx: DomainContext;
let returnId: number;

const open = async () => {
  store = await openStore({
    dataDir: dir,
    beforeCommit: () => {
      if (failCommit) throw new Error('disk I/O error (injected)');
    },
  });
  ctx = { store, clock: systemClock, config: await loadConfigCache(store) };
};

beforeEach(async () => {
  ({ dir, cleanup } = await tempDataDir());
  await open();
  returnId = await store.write((t) => t.returns.add(sampleReturn(1, 1)));
});
afterEach(async () => {
  failCommit = false;
  await store.close();
  await cleanup();
});

/** A create of a package of return `returnId` (or a missing return) with this tracking number, as the API's. */
const create = (tracking: string, ret = returnId) =>
  runCoalescedScript(ctx, (t, now) =>
    createPackage(t, now, 1, {
      return_id: ret,
      tracking_number: tracking,
      status: 'in_transit',
      estimated_arrival: null,
      shipping_method: null,
      weight: null,
      weight_unit: 'kg',
      length: null,
      width: null,
      height: null,
      dimension_unit: 'cm',
      shipping_label_cost: null,
      shipping_label_cost_currency: null,
      carrier_id: null,
      location_id: null,
    }),
  );

it('runs scripts that arrive while a batch is in the engine in one write, each answered once it is durable', async () => {
  const writes = store.write;
  let count = 0;
  (store as { write: StationStore['write'] }).write = ((...args: Parameters<StationStore['write']>) => {
    count += 1;
    return (writes as (...a: unknown[]) => Promise<unknown>)(...args);
  }) as StationStore['write'];
  const created = await Promise.all(Array.from({ length: 20 }, (_, i) => create(`BATCH-${i}`)));
  (store as { write: StationStore['write'] }).write = writes;
  // The first runs alone; the 19 that arrived meanwhile share the next write (in the test runs each
  // batch is rehearsed first, in a write of its own: script-batches.ts).
  expect(count).toBe(process.env.RETURNS_STATION_CHECK_WRITE_RULES === '1' ? 4 : 2);
  expect(created.map((p) => p.tracking_number)).toEqual(Array.from({ length: 20 }, (_, i) => `BATCH-${i}`));
  expect(new Set(created.map((p) => p.id)).size).toBe(20);

  await store.close();
  await open();
  const stored = await insidesOf(store).db.return_packages.bulkGet(created.map((p) => p.id));
  expect(stored.map((p) => p?.tracking_number)).toEqual(created.map((p) => p.tracking_number));
  const logged = store.changeLog.after(0, 1_000_000);
  for (const p of created)
    expect(
      logged.some((e) => e.resource === 'return_package' && e.resource_id === p.id && e.action === 'created'),
      `change of ${p.id}`,
    ).toBe(true);
  for (const p of created) expect(await insidesOf(store).db.outbox.get(`return_package:${p.id}`), `outbox slot of ${p.id}`).toBeDefined();
});

it('fails a failing script alone: the others of its batch are written, and its error is its own', async () => {
  const first = create('FIRST');
  const batch = [
    create('A-1'),
    create('DUP'),
    create('A-2'),
    create('DUP'), // the second holder of a number taken earlier in the same batch
    create('A-3', 999_999), // a return that does not exist
    create('A-4'),
  ];
  const results = await Promise.allSettled([first, ...batch]);
  const [, a1, dup1, a2, dup2, missing, a4] = results;
  for (const ok of [a1, dup1, a2, a4]) expect(ok?.status).toBe('fulfilled');
  const holder = dup1?.status === 'fulfilled' ? dup1.value.id : -1;
  expect(dup2?.status).toBe('rejected');
  const duplicate = (dup2 as PromiseRejectedResult).reason as ContractError;
  expect(duplicate).toBeInstanceOf(ContractError);
  expect(duplicate.body.error_code).toBe('DUPLICATE_TRACKING_NUMBER');
  expect(duplicate.body.details).toMatchObject({ existing_id: holder });
  const invalid = (missing as PromiseRejectedResult).reason as ContractError;
  expect(invalid.status).toBe(422);
  expect(invalid.body.details.message).toContain('return_id');

  await store.close();
  await open();
  const all = await insidesOf(store).db.return_packages.toArray();
  expect(all.map((p) => p.tracking_number).sort()).toEqual(['A-1', 'A-2', 'A-4', 'DUP', 'FIRST']);
  expect(all.find((p) => p.tracking_number === 'DUP')?.id).toBe(holder);
});

it('runs a failed batch again before the scripts that arrived while it ran', async () => {
  const first = create('ORDER-FIRST');
  let late: Promise<Awaited<ReturnType<typeof create>>> | undefined;
  const a = create('ORDER-A');
  const failing = runCoalescedScript(ctx, () => {
    late ??= create('ORDER-LATE'); // arrives while this batch runs in the engine
    return Promise.reject(new Error('meant to fail'));
  });
  const b = create('ORDER-B');
  await expect(failing).rejects.toThrow('meant to fail');
  const ids = [(await first).id, (await a).id, (await b).id, (await (late ?? Promise.reject(new Error('no late create')))).id];
  expect(ids).toEqual([...ids].sort((x, y) => x - y));
});

it('fails every script of a batch whose commit fails, and takes the next scripts afterwards', async () => {
  await create('BEFORE');
  failCommit = true;
  const failed = await Promise.allSettled([create('F-1'), create('F-2'), create('F-3')]);
  failCommit = false;
  for (const result of failed) {
    expect(result.status).toBe('rejected');
    expect((result as PromiseRejectedResult).reason).toBeInstanceOf(CommitFailedError);
  }
  const after = await Promise.all([create('AFTER-1'), create('AFTER-2')]);
  expect(after.map((p) => p.tracking_number)).toEqual(['AFTER-1', 'AFTER-2']);
  await store.close();
  await open();
  expect((await insidesOf(store).db.return_packages.toArray()).map((p) => p.tracking_number).sort()).toEqual(['AFTER-1', 'AFTER-2', 'BEFORE']);
});
