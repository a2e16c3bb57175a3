import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openStore, STORE_FILE, type StationStore } from '../../electron/station/store/index.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';
import { sampleLineItem, tempDataDir } from './fixtures.ts';

/*
 * A scanned unit label finds its line item through the store's unit index (sqlite/unit-index.ts, a
 * side index): by a `unit:` tag or the `unit_id` field, without case; it follows every write, and a
 * data directory written before the index existed gets it, filled, when it is next opened.
 */

let dir: string;
let cleanup: () => Promise<void>;
let store: StationStore;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDataDir());
  store = await openStore({ dataDir: dir });
  await store.write(async () => {
    const items = insidesOf(store).db.package_line_items;
    await items.add({ ...sampleLineItem(1, 1), tags: ['restock', 'unit:RS-AAAA0001-1'] } as never);
    await items.add({ ...sampleLineItem(1, 2), unit_id: 'RS-AAAA0001-2' } as never);
    await items.add({ ...sampleLineItem(2, 3) } as never);
  });
});
afterEach(async () => {
  await store.close();
  await cleanup();
});

const unitOf = async (unitId: string) => (await store.packages.lineItemsOfUnit(unitId, 10)).map((item) => item.quantity);

it('finds a unit by its tag or its field, without case, and follows changes and deletes', async () => {
  expect(await unitOf('rs-aaaa0001-1')).toEqual([1]);
  expect(await unitOf('RS-AAAA0001-2')).toEqual([2]);
  expect(await unitOf('RS-AAAA0001-3')).toEqual([]);

  const all = await insidesOf(store).db.package_line_items.toArray();
  const id = (quantity: number) => all.find((item) => item.quantity === quantity)?.id ?? -1;
  await store.write(async () => {
    await insidesOf(store).db.package_line_items.update(id(3), { unit_id: 'RS-AAAA0001-3' } as never);
    await insidesOf(store).db.package_line_items.delete(id(1));
  });
  expect(await unitOf('RS-AAAA0001-3')).toEqual([3]);
  expect(await unitOf('RS-AAAA0001-1')).toEqual([]);
});

it('a data directory written before the unit index gets it, filled, when next opened', async () => {
  await store.close();
  const sqlite = new DatabaseSync(join(dir, STORE_FILE));
  sqlite.exec('DROP TRIGGER _line_item_units_insert; DROP TRIGGER _line_item_units_update; DROP TRIGGER _line_item_units_delete; DROP TABLE _line_item_units');
  sqlite.close();

  store = await openStore({ dataDir: dir });
  expect(await unitOf('RS-AAAA0001-1')).toEqual([1]);
  expect(await unitOf('rs-aaaa0001-2')).toEqual([2]);
});
