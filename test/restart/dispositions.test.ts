import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ApiClient } from '#shared/api/client.ts';
import type { PackageLineItem } from '#shared/api/line-items.ts';
import { DEFAULT_DISPOSITION_RULES } from '#shared/dispositions.ts';
import { manualReturnBody } from '../support/manual-return.ts';
import { startStation } from '../support/station-process.ts';
import { call } from '../api/support.ts';
import { cli } from './station-state.ts';

/*
 * Dispositions survive a real stop and start of `returns-station serve` on the same data directory:
 * the rule table and the dispositions' names, each item's disposition, bin, unit id,
 * override and put, and the unit ids the station hands out after the restart stay unique.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

it('keeps the rules, the dispositions, overrides and puts over a stop and a start, and refuses bad rules without losing them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'station-dispositions-'));
  dirs.push(dir);
  cli(dir, 'token', 'create', '--account', '1001', '--name', 'integration');
  let station = await startStation({ dataDir: dir });
  let api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });

  const rules = [{ name: 'Recalls', reason_contains: 'recall', disposition: 'quarantine' as const, bin: 'Q-RECALL' }, ...DEFAULT_DISPOSITION_RULES];
  const styles = { ...(await api.dispositionRules()).dispositions, restock: { label: 'Back to shelf', color: '#00aa00' } };
  const saved = await api.updateDispositionRules({ dispositions: styles, rules });
  expect(saved.updated_at).not.toBeNull();

  const ret = await api.createReturn({ ...manualReturnBody({ reason_of_return: 'Product RECALL notice' }), account_id: 1001 });
  const pkg = await api.createPackage(1001, { return_id: ret.id, tracking_number: 'DISP-RESTART-1', status: 'delivered' });
  const recalled = await api.createLineItem(1001, pkg.id, { condition: 'new' });
  expect(recalled).toMatchObject({ disposition: 'quarantine', bin: 'Q-RECALL' });
  const ret2 = await api.createReturn({ ...manualReturnBody(), account_id: 1001 });
  const pkg2 = await api.createPackage(1001, { return_id: ret2.id, tracking_number: 'DISP-RESTART-2', status: 'delivered' });
  const item = await api.createLineItem(1001, pkg2.id, { condition: 'like_new', tags: ['keep-me'] });
  const overridden = await api.updateLineItem(1001, pkg2.id, item.id, { disposition: 'refurbish', bin: 'R-2', disposition_reason: 'Box crushed' });
  const put = await api.confirmPut(1001, pkg2.id, item.id, { bin: 'r-2' });
  expect(put.put_confirmed_at).not.toBeNull();

  // Bad rules: refused, and what was saved is still there after the restart.
  const refused = await call(station.origin, 'PUT', '/api/v1/station/disposition-rules', {
    token: station.stationToken,
    body: {
      rules: [
        { disposition: 'restock', bin: 'A' },
        { disposition: 'dispose', bin: 'B' },
      ],
    },
  });
  expect(refused.status).toBe(422);
  const before = { rules: await api.dispositionRules(), pkg: await api.getPackage(1001, pkg.id), pkg2: await api.getPackage(1001, pkg2.id) };
  expect(await station.stop()).toBe(0);

  station = await startStation({ dataDir: dir });
  api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
  expect(await api.dispositionRules()).toEqual(before.rules);
  expect((await api.dispositionRules()).dispositions.restock.label).toBe('Back to shelf');
  expect(await api.getPackage(1001, pkg.id)).toEqual(before.pkg);
  const after2 = await api.getPackage(1001, pkg2.id);
  expect(after2).toEqual(before.pkg2);
  const kept = after2.line_items[0] as PackageLineItem;
  expect(kept).toMatchObject({
    disposition: 'refurbish',
    bin: 'R-2',
    disposition_source: 'override',
    unit_id: overridden.unit_id,
    put_confirmed_at: put.put_confirmed_at,
  });
  expect(kept.disposition_override?.reason).toBe('Box crushed');
  expect(kept.tags).toEqual(['keep-me', 'disposition:refurbish', 'bin:R-2', `unit:${overridden.unit_id}`]);

  // The station keeps its short id: new units carry the same prefix and a new number.
  const next = await api.createLineItem(1001, pkg2.id, { condition: 'damaged' });
  const prefix = (id: string | null) => id?.replace(/\d+$/, '');
  expect(prefix(next.unit_id)).toBe(prefix(recalled.unit_id));
  expect(new Set([recalled.unit_id, item.unit_id, next.unit_id]).size).toBe(3);

  // Lists still filter after the restart, and the package receives with every unit disposed.
  expect((await api.listPackages(1001, { disposition: ['quarantine'] })).data.map((p) => p.id)).toEqual([pkg.id]);
  expect((await api.updatePackage(1001, pkg2.id, { status: 'received' })).status).toBe('received');
  expect(await station.stop()).toBe(0);
}, 120_000);
