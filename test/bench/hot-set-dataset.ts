import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { seedCatalog } from '../../electron/station/domain/catalog.ts';
import { openStore, STORE_FILE } from '../../electron/station/store/index.ts';

/*
 * A station's history written straight into SQLite (a million records through the store would take
 * the bench an hour): `history` returns, each with one package; `hot` of them open and changed today,
 * the rest received (with their line items) more than a month ago. The rows are what the store
 * writes (one JSON record per row); the store's own open creates the tables and indexes first.
 */

const DAY = 86_400_000;
const iso = (ms: number): string => new Date(ms).toISOString();

export interface HotSetDataset {
  dataDir: string;
  history: number;
  hot: number;
  /** Ids of packages that are cold (received long ago) and hot (open). */
  coldIds: number[];
  hotIds: number[];
}

export async function buildHotSetDataset(history: number, hot: number): Promise<HotSetDataset> {
  const dataDir = await mkdtemp(join(tmpdir(), `bench-hot-${history}-`));
  const store = await openStore({ dataDir });
  await seedCatalog(store);
  await store.close();
  const db = new DatabaseSync(join(dataDir, STORE_FILE));
  const now = Date.now();
  const addReturn = db.prepare('INSERT INTO returns (k, v) VALUES (?, ?)');
  const addPackage = db.prepare('INSERT INTO return_packages (k, v) VALUES (?, ?)');
  const addItem = db.prepare('INSERT INTO package_line_items (k, v) VALUES (?, ?)');
  const hotEvery = Math.max(1, Math.floor(history / Math.max(1, hot)));
  const coldIds: number[] = [];
  const hotIds: number[] = [];
  let itemId = 0;
  db.exec('BEGIN');
  for (let id = 1; id <= history; id++) {
    const isHot = id % hotEvery === 0 && hotIds.length < hot;
    const at = isHot ? now - (id % 3_600) * 1000 : now - 30 * DAY - (history - id) * 20_000;
    const accountId = 1 + (id % 4);
    const line = {
      id,
      quantity: 1,
      unreceived_quantity_at_create: 1,
      unreceived_quantity: isHot ? 1 : 0,
      name: 'Merino wool sweater',
      price: 24.95,
      currency: 'EUR',
      merchant_sku: `SW-${id}`,
    };
    addReturn.run(
      id,
      JSON.stringify({
        id,
        account_id: accountId,
        status: isHot ? 'awaiting' : 'received',
        email: `customer.${id}@example.com`,
        receive_by: '2026-12-31',
        total_price: 24.95,
        currency: 'EUR',
        weight: 1250,
        weight_unit: 'g',
        reason_of_return: 'Wrong size',
        length: 40,
        width: 30,
        height: 20,
        dimension_unit: 'cm',
        return_line_items: [line],
        sku_keys: [`sw-${id}`],
        created_at: iso(at),
        updated_at: iso(at),
      }),
    );
    const tracking = `1Z${id.toString(36).toUpperCase().padStart(10, '0')}`;
    addPackage.run(
      id,
      JSON.stringify({
        id,
        account_id: accountId,
        return_id: id,
        tracking_number: tracking,
        tracking_key: tracking.toLowerCase(),
        status: isHot ? 'in_transit' : 'received',
        estimated_arrival: iso(at + 3 * DAY),
        actual_arrival: isHot ? null : iso(at + DAY),
        shipping_method: 'ground',
        weight: 1.25,
        weight_unit: 'kg',
        length: 40,
        width: 30,
        height: 20,
        dimension_unit: 'cm',
        shipping_label_cost: 6.9,
        shipping_label_cost_currency: 'EUR',
        carrier_id: 1 + (id % 5),
        location_id: 1 + (id % 3),
        processed_at: isHot ? null : iso(at + DAY),
        processor_id: isHot ? null : 1,
        notes: null,
        line_items_count: isHot ? 0 : 1,
        created_at: iso(at),
        updated_at: iso(at + (isHot ? 0 : DAY)),
      }),
    );
    if (isHot) hotIds.push(id);
    else {
      if (coldIds.length < 10_000 && id % 7 === 0) coldIds.push(id);
      itemId += 1;
      addItem.run(
        itemId,
        JSON.stringify({
          id: itemId,
          account_id: accountId,
          return_package_id: id,
          return_line_item_id: id,
          quantity: 1,
          merchant_sku: `SW-${id}`,
          name: 'Merino wool sweater',
          condition: 'like_new',
          defective: false,
          notes: null,
          barcode: `400${id}`,
          tags: ['restock'],
          created_at: iso(at + DAY),
          updated_at: iso(at + DAY),
        }),
      );
    }
    if (id % 50_000 === 0) {
      db.exec('COMMIT');
      db.exec('BEGIN');
    }
  }
  const bump = db.prepare('INSERT INTO _sequences (name, last) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET last = max(last, excluded.last)');
  bump.run('returns', history);
  bump.run('return_packages', history);
  bump.run('package_line_items', itemId);
  db.exec('COMMIT');
  db.close();
  return { dataDir, history, hot: hotIds.length, coldIds, hotIds };
}
