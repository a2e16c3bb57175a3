import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, expect, it } from 'vitest';
import { ApiClient } from '#shared/api/client.ts';
import type { PackageLineItem } from '#shared/api/line-items.ts';
import { STORE_FILE } from '../../electron/station/store/index.ts';
import { manualReturnBody } from '../support/manual-return.ts';
import { startStation } from '../support/station-process.ts';
import { cli } from './station-state.ts';

/*
 * Units (docs/decisions/units.md) over a real stop and start of `returns-station serve`: each unit's
 * condition, who set it and when, its put and who made it stay; a line item stored before units
 * kept those fields (its JSON without them, as the previous version wrote it, a quantity 2 made by two
 * scans) opens as it was — answered with nulls, its quantity and unit id kept — and takes them from
 * its next change on. A unit's label (labelled_at) and put keep holding it after the restart.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const NEW_FIELDS = ['condition_by', 'condition_at', 'put_by'];

it('keeps who set each unit and when across a restart, and upgrades an older-shaped item in place', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'station-units-'));
  dirs.push(dir);
  cli(dir, 'token', 'create', '--account', '1001', '--name', 'integration');
  cli(dir, 'operator', 'add', '--name', 'Ada', '--badge', 'BADGE-U-ADA');
  let station = await startStation({ dataDir: dir });
  let api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
  const ada = (await api.listOperators()).data.find((o) => o.name === 'Ada')?.id ?? 0;
  expect(ada).toBeGreaterThan(0);

  const ret = await api.createReturn({ ...manualReturnBody(), account_id: 1001 });
  const line = ret.return_line_items[0];
  if (!line) throw new Error('The manual return has no line.');
  const pkg = await api.createPackage(1001, { return_id: ret.id, tracking_number: 'UNITS-RESTART-1', status: 'delivered' });
  const first = await api.createLineItem(1001, pkg.id, { return_line_item_id: line.id, condition: 'new', condition_by: ada });
  const second = await api.createLineItem(1001, pkg.id, { return_line_item_id: line.id });
  await api.updateLineItem(1001, pkg.id, second.id, { condition: 'good', condition_by: ada });
  await api.confirmPut(1001, pkg.id, first.id, { bin: 'RESTOCK', put_by: ada });
  // What the previous version made of two scans of one SKU: one item of quantity 2.
  const legacy = await api.createLineItem(1001, pkg.id, { return_line_item_id: line.id, quantity: 2, condition: 'fair' });
  // The second unit's label is made: the station remembers it (labelled_at) and holds the unit.
  await api.createUnitLabel(1001, pkg.id, second.id);
  const before = await api.getPackage(1001, pkg.id);
  expect(await station.stop()).toBe(0);

  // The legacy item as the previous version stored it: without the new fields.
  const db = new DatabaseSync(join(dir, STORE_FILE));
  const row = db.prepare('SELECT v FROM package_line_items WHERE k = ?').get(legacy.id) as { v: string };
  const stored = JSON.parse(row.v) as Record<string, unknown>;
  expect(Object.keys(stored)).toEqual(expect.arrayContaining(NEW_FIELDS));
  for (const field of NEW_FIELDS) Reflect.deleteProperty(stored, field);
  db.prepare('UPDATE package_line_items SET v = ? WHERE k = ?').run(JSON.stringify(stored), legacy.id);
  db.close();

  station = await startStation({ dataDir: dir });
  api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
  const after = await api.getPackage(1001, pkg.id);
  // Everything as it was, but the older item's new fields, which it never had.
  expect(after).toEqual({ ...before, line_items: before.line_items.map((i) => (i.id === legacy.id ? { ...i, condition_at: null } : i)) });
  const [a, b, old] = after.line_items as [PackageLineItem, PackageLineItem, PackageLineItem];
  expect(a).toMatchObject({ quantity: 1, condition: 'new', condition_by: ada, put_by: ada, bin: 'RESTOCK' });
  expect(a.put_confirmed_at).not.toBeNull();
  expect(b).toMatchObject({ quantity: 1, condition: 'good', condition_by: ada, put_by: null, put_confirmed_at: null, bin: 'REFURB' });
  expect(b.condition_at).not.toBeNull();
  // Its label and the first unit's put still hold them: neither is removed, neither's quantity changes.
  expect(b.labelled_at).not.toBeNull();
  expect(a.labelled_at).toBeNull();
  await expect(api.deleteLineItem(1001, pkg.id, b.id)).rejects.toMatchObject({
    status: 409,
    errorCode: 'UNIT_LABELLED_OR_PUT',
    details: { unit_id: b.unit_id },
  });
  await expect(api.updateLineItem(1001, pkg.id, a.id, { quantity: 3 })).rejects.toMatchObject({ status: 409, errorCode: 'UNIT_LABELLED_OR_PUT' });
  expect(new Set([a.unit_id, b.unit_id, old.unit_id]).size).toBe(3);
  // Nothing relabelled: the older item keeps its quantity and its unit id, and answers nulls.
  expect(old).toMatchObject({ quantity: 2, unit_id: legacy.unit_id, condition_by: null, condition_at: null, put_by: null });

  const changed = await api.updateLineItem(1001, pkg.id, old.id, { condition: 'like_new', condition_by: ada });
  expect(changed).toMatchObject({ quantity: 2, unit_id: legacy.unit_id, condition: 'like_new', condition_by: ada, disposition: 'restock' });
  expect(changed.condition_at).not.toBeNull();
  expect(await station.stop()).toBe(0);
}, 120_000);
