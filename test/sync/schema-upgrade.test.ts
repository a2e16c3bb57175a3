import { rmSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { openStore } from '../../electron/station/store/index.ts';
import { STATION_SCHEMA } from '../../electron/station/store/schema.ts';
import { RETURN_BODY, startLocal, tempDir, tracking } from './support.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * A data directory written by the previous release (store schema version 1, no sync tables) opens
 * in the real `serve` of this one, keeps everything, and starts again after the upgrade.
 */

const dataDir = tempDir('sync-upgrade-');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('upgrades a version 1 data directory in place, and starts again', async () => {
  const v1 = STATION_SCHEMA.filter((version) => version.version === 1);
  const old = await openStore({ dataDir, schema: v1 });
  const trackingNumber = tracking('OLD');
  // Records as the previous release wrote them (its domain code had no outbox to mark).
  const at = '2026-11-20T08:00:00.000Z';
  const packageId = await old.write(async () => {
    // Only the version 1 tables exist here (the write's tables would name the new ones too): the
    // engine's own, which join this write through Dexie's zone.
    const t = {
      accounts: insidesOf(old).db.table('accounts'),
      returns: insidesOf(old).db.table('returns'),
      return_packages: insidesOf(old).db.table('return_packages'),
      change_log: insidesOf(old).db.table('change_log'),
    };
    await t.accounts.put({ id: 7, name: 'Account 7', created_at: at });
    const lines = RETURN_BODY.return_line_items.map((line, i) => ({ ...line, id: i + 1, unreceived_quantity_at_create: line.unreceived_quantity }));
    const returnId = await t.returns.add({
      ...RETURN_BODY,
      account_id: 7,
      status: 'awaiting',
      return_line_items: lines,
      sku_keys: ['ts-red-m', 'jn-32'],
      created_at: at,
      updated_at: at,
    });
    const pkg = {
      account_id: 7,
      return_id: returnId,
      tracking_number: trackingNumber,
      tracking_key: trackingNumber.toLowerCase(),
      status: 'in_transit' as const,
      estimated_arrival: null,
      actual_arrival: null,
      shipping_method: null,
      weight: null,
      weight_unit: null,
      length: null,
      width: null,
      height: null,
      dimension_unit: null,
      shipping_label_cost: null,
      shipping_label_cost_currency: null,
      carrier_id: null,
      location_id: null,
      processed_at: null,
      processor_id: null,
      notes: null,
      line_items_count: 0,
      created_at: at,
      updated_at: at,
    };
    const id = Number(await t.return_packages.add(pkg));
    await t.change_log.add({ account_id: 7, resource: 'return_package', resource_id: id, action: 'created', data: { ...pkg, id }, created_at: at });
    return id;
  });
  await old.close();

  let local = await startLocal(dataDir);
  try {
    const pkg = await local.api.getPackage(7, packageId);
    expect(pkg.tracking_number).toBe(trackingNumber);
    const updated = await local.api.updatePackage(7, packageId, { status: 'received' });
    expect(updated.status).toBe('received');
    expect((await local.api.station()).sync.state).toBe('disabled');
    expect(await local.station.stop()).toBe(0);
    local = await startLocal(dataDir);
    expect((await local.api.getPackage(7, packageId)).status).toBe('received');
  } finally {
    await local.station.stop();
  }
  const reopened = await openStore({ dataDir });
  try {
    // The change made after the upgrade waits in the outbox for an upstream.
    expect((await insidesOf(reopened).db.outbox.toArray()).map((e) => e.key)).toContain(`return_package:${packageId}`);
  } finally {
    await reopened.close();
  }
});
