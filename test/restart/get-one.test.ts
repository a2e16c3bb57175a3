import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startStation } from '../support/station-process.ts';
import { returnLine } from '../support/manual-return.ts';
import { call, createPackage, createReturn } from '../api/support.ts';
import { cli } from './station-state.ts';

/*
 * Get-one of a package is read in one turn from the engine's memory when it can be
 * (store/engine-reads.ts): on the real `returns-station serve`, while writes to the same package
 * run, every answer is a state some write left whole, and the last one survives a restart.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface PackageView {
  id: number;
  notes: string | null;
  line_items: Array<{ id: number; notes: string | null; tags: string[] }>;
}

it('answers get-one with whole states while its package is written, and the same after a restart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'get-one-'));
  dirs.push(dir);
  const token = cli(dir, 'token', 'create', '--account', '1001', '--name', 'get-one test').trim();
  let station = await startStation({ dataDir: dir });
  const A = '/api/v1/accounts/1001';
  const created = await createReturn(station.origin, token, { return_line_items: [returnLine('GET-ONE-1', 2), returnLine('GET-ONE-2', 1)] });
  const pkg = await createPackage(station.origin, token, 1001, created.id);
  const itemIds: number[] = [];
  for (const line of created.return_line_items) {
    const item = await call(station.origin, 'POST', `${A}/return_packages/${pkg.id}/line_items`, {
      token,
      body: { return_line_item_id: line.id, quantity: 1 },
    });
    expect(item.status, item.text).toBe(201);
    itemIds.push((item.json as { id: number }).id);
  }

  // Each round writes the same mark into both items (one write each) and reads in between.
  const reads: PackageView[] = [];
  for (let round = 1; round <= 15; round += 1) {
    const writes = itemIds.map((id) =>
      call(station.origin, 'PATCH', `${A}/return_packages/${pkg.id}/line_items/${id}`, { token, body: { notes: `round ${round}`, tags: [`r${round}`] } }),
    );
    const got = await Promise.all([...writes, ...[1, 2, 3].map(() => call(station.origin, 'GET', `${A}/return_packages/${pkg.id}`, { token }))]);
    for (const response of got) expect(response.status, response.text).toBe(200);
    reads.push(...got.slice(itemIds.length).map((response) => response.json as PackageView));
  }
  for (const view of reads) {
    expect(view.line_items.map((item) => item.id)).toEqual(itemIds);
    // An item's notes and tags come from one write: never one field from one and one from another.
    for (const item of view.line_items) expect(item.tags).toEqual(item.notes === null ? [] : [`r${item.notes.slice('round '.length)}`]);
  }
  const last = await call(station.origin, 'GET', `${A}/return_packages/${pkg.id}`, { token });
  expect((last.json as PackageView).line_items.map((item) => item.notes)).toEqual(['round 15', 'round 15']);
  expect(await station.stop()).toBe(0);

  station = await startStation({ dataDir: dir });
  try {
    const again = await call(station.origin, 'GET', `${A}/return_packages/${pkg.id}`, { token });
    expect(again.status, again.text).toBe(200);
    expect(again.json).toEqual(last.json);
  } finally {
    await station.stop();
  }
});
