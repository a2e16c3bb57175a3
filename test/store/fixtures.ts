import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PackageLineItem, PackageStatus, ReturnPackage, ReturnRecord, StationStore } from '../../electron/station/store/index.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';
import { trackingKey } from '../../electron/station/store/index.ts';

/** A fresh data directory under the OS temp folder, and its cleanup. */
export async function tempDataDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'store-test-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

const BASE = Date.UTC(2026, 10, 1);

export function timestamp(minutes: number): string {
  return new Date(BASE + minutes * 60_000).toISOString();
}

export function sampleReturn(accountId: number, n: number, lineIds: number[] = [n * 10 + 1]): Omit<ReturnRecord, 'id'> {
  return {
    account_id: accountId,
    status: 'awaiting',
    email: `customer${n}@example.com`,
    receive_by: '2026-12-01',
    total_price: 19.99 + n,
    currency: 'EUR',
    weight: 500,
    weight_unit: 'g',
    reason_of_return: 'Too small',
    length: 30,
    width: 20,
    height: 10,
    dimension_unit: 'cm',
    sku_keys: lineIds.map((id) => `sku-${id}`),
    return_line_items: lineIds.map((id, index) => ({
      id,
      quantity: index + 1,
      unreceived_quantity_at_create: index + 1,
      unreceived_quantity: index + 1,
      name: `Item ${id}`,
      price: 9.99,
      currency: 'EUR',
      merchant_sku: `SKU-${id}`,
    })),
    created_at: timestamp(n),
    updated_at: timestamp(n),
  };
}

export function samplePackage(accountId: number, returnId: number, n: number, overrides: Partial<ReturnPackage> = {}): Omit<ReturnPackage, 'id'> {
  const status: PackageStatus = overrides.status ?? 'in_transit';
  const tracking = overrides.tracking_number ?? `1Z${String(n).padStart(10, '0')}`;
  return {
    account_id: accountId,
    return_id: returnId,
    tracking_number: tracking,
    tracking_key: status === 'cancelled' ? null : trackingKey(tracking),
    status,
    estimated_arrival: timestamp(n + 1440),
    actual_arrival: null,
    shipping_method: 'ground',
    weight: 1.5,
    weight_unit: 'kg',
    length: 30,
    width: 20,
    height: 10,
    dimension_unit: 'cm',
    shipping_label_cost: 5.5,
    shipping_label_cost_currency: 'EUR',
    carrier_id: 1 + (n % 3),
    location_id: 1 + (n % 2),
    processed_at: null,
    processor_id: null,
    notes: null,
    created_at: timestamp(n),
    updated_at: timestamp(n),
    ...overrides,
  };
}

/** Every table's records, by table name, in primary-key order. */
export async function dumpEngine(store: StationStore): Promise<Record<string, unknown[]>> {
  const { db } = insidesOf(store);
  const dump: Record<string, unknown[]> = {};
  for (const table of db.tables) dump[table.name] = await table.toArray();
  return dump;
}

/** Inspected item `n` of package `packageId` (quantity n, like new, tagged restock). */
export function sampleLineItem(packageId: number, n: number): Omit<PackageLineItem, 'id'> {
  return {
    account_id: 1,
    return_package_id: packageId,
    return_line_item_id: null,
    quantity: n,
    merchant_sku: `SKU-${n}`,
    name: `Item ${n}`,
    condition: 'like_new',
    defective: false,
    notes: null,
    barcode: null,
    tags: ['restock'],
    created_at: timestamp(n),
    updated_at: timestamp(n),
  };
}
