import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, expect, it } from 'vitest';
import { ApiClient } from '#shared/api/client.ts';
import { STORE_FILE } from '../../electron/station/store/index.ts';
import { manualReturnBody, returnLine } from '../support/manual-return.ts';
import { startStation } from '../support/station-process.ts';
import { cli } from './station-state.ts';

/*
 * Serial numbers (docs/decisions/serials.md) over a real stop and start of `returns-station serve`:
 * the serial rules, a unit's serial, its tag and its check stay; a serial recorded before the stop is
 * still found on another unit after it — also on a data directory written before the serial index
 * existed (the index is made and filled at the start).
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const IMEI = '490154203237518';

it('keeps the rules, the serial and its check across a restart, and finds the serial on another unit after it, index rebuilt', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'station-serials-'));
  dirs.push(dir);
  cli(dir, 'token', 'create', '--account', '1001', '--name', 'integration');
  let station = await startStation({ dataDir: dir });
  let api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
  await api.updateStationSettings({ serial_rules: [{ sku_pattern: 'PHONE-*', kind: 'imei' }] });
  const body = { ...manualReturnBody({ return_line_items: [returnLine('PHONE-X1', 1, { name: 'Phone' })] }), account_id: 1001 };
  const ret = await api.createReturn(body);
  const line = ret.return_line_items[0];
  if (!line) throw new Error('The manual return has no line.');
  const pkg = await api.createPackage(1001, { return_id: ret.id, tracking_number: 'SERIALS-RESTART-1', status: 'delivered' });
  const unit = await api.createLineItem(1001, pkg.id, { return_line_item_id: line.id, serial: IMEI, tags: ['boxed'], condition: 'new' });
  expect(unit.serial_check?.result).toBe('unique');
  const before = await api.getPackage(1001, pkg.id);
  expect(await station.stop()).toBe(0);

  // As a data directory of the version before serials: no serial index (the unit's tag is there).
  const db = new DatabaseSync(join(dir, STORE_FILE));
  db.exec(
    'DROP TRIGGER _line_item_serials_insert; DROP TRIGGER _line_item_serials_update; DROP TRIGGER _line_item_serials_delete; DROP TABLE _line_item_serials;',
  );
  db.close();

  station = await startStation({ dataDir: dir });
  api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
  expect((await api.stationSettings()).serial_rules).toEqual([{ sku_pattern: 'PHONE-*', kind: 'imei' }]);
  const after = await api.getPackage(1001, pkg.id);
  expect(after).toEqual(before);
  expect(after.line_items[0]).toMatchObject({ serial: IMEI, tags: ['boxed', `serial:${IMEI}`, 'disposition:restock', 'bin:RESTOCK', `unit:${unit.unit_id}`] });

  // Another parcel, the same phone: flagged with the unit recorded before the restart.
  const ret2 = await api.createReturn(body);
  const pkg2 = await api.createPackage(1001, { return_id: ret2.id, tracking_number: 'SERIALS-RESTART-2', status: 'delivered' });
  const again = await api.createLineItem(1001, pkg2.id, { return_line_item_id: ret2.return_line_items[0]?.id ?? 0, serial: IMEI });
  expect(again.serial_check).toMatchObject({ result: 'duplicate', duplicate_of: { unit_id: unit.unit_id, tracking_number: 'SERIALS-RESTART-1' } });
  // A phone without its serial is not received, after the restart too.
  const ret3 = await api.createReturn(body);
  const pkg3 = await api.createPackage(1001, { return_id: ret3.id, tracking_number: 'SERIALS-RESTART-3', status: 'delivered' });
  await api.createLineItem(1001, pkg3.id, { return_line_item_id: ret3.return_line_items[0]?.id ?? 0 });
  await expect(api.updatePackage(1001, pkg3.id, { status: 'received' })).rejects.toMatchObject({ status: 409, errorCode: 'SERIAL_MISSING' });
  expect(await station.stop()).toBe(0);
}, 120_000);
