import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Dexie } from 'dexie';
import { allocateIds, openStore, type SchemaVersion, type StationStore } from '../../electron/station/store/index.ts';
import { latestVersion, STATION_SCHEMA } from '../../electron/station/store/schema.ts';
import { dumpEngine, samplePackage, sampleReturn, tempDataDir } from './fixtures.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

let dir: string;
let cleanup: () => Promise<void>;
const open: StationStore[] = [];

beforeEach(async () => {
  ({ dir, cleanup } = await tempDataDir());
});
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
  await cleanup();
});

async function openIn(schema?: readonly SchemaVersion[]): Promise<StationStore> {
  const store = await openStore({ dataDir: dir, ...(schema ? { schema } : {}) });
  open.push(store);
  return store;
}

async function reopen(store: StationStore, schema?: readonly SchemaVersion[]): Promise<StationStore> {
  await store.close();
  open.splice(open.indexOf(store), 1);
  return openIn(schema);
}

describe('every mutation kind survives close and reopen', () => {
  it('add, put, bulkAdd, bulkPut, update, delete, bulkDelete, deleteRange and clear', async () => {
    let store = await openIn();
    const { db } = insidesOf(store);
    const returnId = await store.write(() => db.returns.add(sampleReturn(1, 1)));
    // Auto-increment keys: the engine assigns them, the durable copy must carry them.
    const packageIds = await store.write(() =>
      db.return_packages.bulkAdd(
        [1, 2, 3, 4, 5].map((n) => samplePackage(1, returnId, n)),
        { allKeys: true },
      ),
    );
    expect(packageIds).toEqual([1, 2, 3, 4, 5]);
    await store.write(async () => {
      await db.return_packages.put({ ...samplePackage(1, returnId, 1, { notes: 'put' }), id: 1 });
      await db.return_packages.update(2, { notes: 'updated' });
      await db.return_packages.bulkPut([
        { ...samplePackage(1, returnId, 6), id: 6 },
        { ...samplePackage(1, returnId, 3, { status: 'received' }), id: 3 },
      ]);
      await db.return_packages.where('return_id').equals(returnId).modify({ weight: 2 });
    });
    await store.write(() => db.return_packages.delete(4));
    await store.write(() => db.return_packages.bulkDelete([5, 99]));
    // deleteRange: a primary-key range and a whole-table clear.
    await store.write(async () => {
      await db.operators.bulkAdd(
        [1, 2, 3, 4].map((n) => ({
          uid: `00000000-0000-4000-8000-00000000000${n}`,
          name: `Op ${n}`,
          badge_code: `B${n}`,
          active: true,
          created_at: '2026-11-21T08:00:00.000Z',
          updated_at: '2026-11-21T08:00:00.000Z',
        })),
      );
    });
    await store.write(() => db.operators.where('id').between(2, 3, true, true).delete());
    await store.write(async () => {
      await db.carriers.bulkAdd([
        { code: 'ups', name: 'UPS', service: 'Ground' },
        { code: 'dhl', name: 'DHL', service: 'Parcel' },
      ]);
    });
    await store.write(() => db.carriers.clear());
    await store.write(async () => {
      await db.station_meta.put({ key: 'station_name', value: { name: 'Dock 1', since: null } });
      await db.idempotency_keys.bulkPut(
        ['a', 'b', 'c'].map((key) => ({ key, request_hash: 'h', status: 201, response: '{}', created_at: '2026-11-01T00:00:00.000Z' })),
      );
      await db.idempotency_keys.where('key').below('b').delete();
    });
    const before = await dumpEngine(store);
    expect(before.return_packages).toHaveLength(4);
    expect(before.operators).toEqual([
      {
        uid: '00000000-0000-4000-8000-000000000001',
        name: 'Op 1',
        badge_code: 'B1',
        active: true,
        created_at: '2026-11-21T08:00:00.000Z',
        updated_at: '2026-11-21T08:00:00.000Z',
        id: 1,
      },
      {
        uid: '00000000-0000-4000-8000-000000000004',
        name: 'Op 4',
        badge_code: 'B4',
        active: true,
        created_at: '2026-11-21T08:00:00.000Z',
        updated_at: '2026-11-21T08:00:00.000Z',
        id: 4,
      },
    ]);
    expect(before.carriers).toEqual([]);
    expect((before.idempotency_keys as Array<{ key: string }>).map((row) => row.key)).toEqual(['b', 'c']);

    store = await reopen(store);
    expect(await dumpEngine(store)).toEqual(before);
    // ...and once more: a reload writes nothing back and changes nothing.
    store = await reopen(store);
    expect(await dumpEngine(store)).toEqual(before);
  });

  it('keeps unique compound indexes: one live tracking number per account, cancelled ones exempt', async () => {
    let store = await openIn();
    const { db } = insidesOf(store);
    const returnId = await store.write(() => db.returns.add(sampleReturn(1, 1)));
    await store.write(() => db.return_packages.add(samplePackage(1, returnId, 1, { tracking_number: 'TRACK-1', status: 'cancelled' })));
    await store.write(() => db.return_packages.add(samplePackage(1, returnId, 2, { tracking_number: 'TRACK-1' })));
    await store.write(() => db.return_packages.add(samplePackage(2, returnId, 3, { tracking_number: 'TRACK-1' })));
    await expect(store.write(() => db.return_packages.add(samplePackage(1, returnId, 4, { tracking_number: 'track-1' })))).rejects.toThrow(/constraint/i);
    store = await reopen(store);
    expect(await insidesOf(store).db.return_packages.count()).toBe(3);
    const live = await insidesOf(store).db.return_packages.where('[account_id+tracking_key]').equals([1, 'track-1']).toArray();
    expect(live.map((p) => p.id)).toEqual([2]);
    await expect(store.write(() => insidesOf(store).db.return_packages.add(samplePackage(1, returnId, 5, { tracking_number: 'Track-1' })))).rejects.toThrow(
      /constraint/i,
    );
  });

  it('never gives a deleted id again, also after a reload', async () => {
    let store = await openIn();
    await store.write(() =>
      insidesOf(store).db.accounts.bulkAdd([
        { name: 'a', created_at: 'x' },
        { name: 'b', created_at: 'x' },
      ]),
    );
    await store.write(() => insidesOf(store).db.accounts.delete(2));
    store = await reopen(store);
    expect(await store.write(() => insidesOf(store).db.accounts.add({ name: 'c', created_at: 'x' }))).toBe(3);
  });

  it('allocates embedded line-item ids from a durable sequence', async () => {
    let store = await openIn();
    expect(await store.write((t) => allocateIds(t, 'return_line_items', 3))).toEqual([1, 2, 3]);
    store = await reopen(store);
    expect(await store.write((t) => allocateIds(t, 'return_line_items', 2))).toEqual([4, 5]);
  });

  it('a rolled-back transaction writes nothing', async () => {
    let store = await openIn();
    await expect(
      store.write(async () => {
        await insidesOf(store).db.accounts.add({ name: 'ghost', created_at: 'x' });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    store = await reopen(store);
    expect(await insidesOf(store).db.accounts.count()).toBe(0);
  });

  it('publishes change-log entries after their commit', async () => {
    const store = await openIn();
    const seen: number[] = [];
    store.subscribe((entries) => seen.push(...entries.map((entry) => entry.seq)));
    await store.write(async () => {
      await insidesOf(store).db.change_log.add({ account_id: 1, resource: 'return', resource_id: 1, action: 'created', data: {}, created_at: 'x' });
      await insidesOf(store).db.change_log.add({ account_id: 1, resource: 'return', resource_id: 1, action: 'updated', data: {}, created_at: 'x' });
    });
    expect(seen).toEqual([1, 2]);
  });

  it('writes a schema upgrade through, once', async () => {
    let store = await openIn();
    await store.write(() =>
      insidesOf(store).db.operators.bulkAdd([
        {
          uid: '00000000-0000-4000-8000-0000000000ad',
          name: 'Ada',
          badge_code: null,
          active: true,
          created_at: '2026-11-21T08:00:00.000Z',
          updated_at: '2026-11-21T08:00:00.000Z',
        },
        {
          uid: '00000000-0000-4000-8000-0000000000b0',
          name: 'Bo',
          badge_code: 'B',
          active: false,
          created_at: '2026-11-21T08:00:00.000Z',
          updated_at: '2026-11-21T08:00:00.000Z',
        },
      ]),
    );
    let runs = 0;
    const v2: readonly SchemaVersion[] = [
      ...STATION_SCHEMA,
      {
        // The version after the newest one the station has.
        version: latestVersion(STATION_SCHEMA) + 1,
        stores: { operators: '++id, &badge_code, name', shifts: '++id, operator_id' },
        async upgrade(tx) {
          runs += 1;
          await tx
            .table('operators')
            .toCollection()
            .modify((operator: { name: string }) => {
              operator.name = operator.name.toUpperCase();
            });
          await tx.table('shifts').add({ operator_id: 1 });
        },
      },
    ];
    store = await reopen(store, v2);
    expect(runs).toBe(1);
    expect((await insidesOf(store).db.operators.toArray()).map((o) => o.name)).toEqual(['ADA', 'BO']);
    store = await reopen(store, v2);
    expect(runs).toBe(1);
    expect((await insidesOf(store).db.operators.toArray()).map((o) => o.name)).toEqual(['ADA', 'BO']);
    expect(await insidesOf(store).db.table('shifts').toArray()).toEqual([{ operator_id: 1, id: 1 }]);
    expect(await insidesOf(store).db.table('operators').where('name').equals('BO').count()).toBe(1);
    expect(Dexie.currentTransaction).toBeNull();
  });
});
