import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { PrintJob, PrintJobListResponse } from '#shared/api/printing.ts';
import { call, createPackage, createReturn } from '../api/support.ts';
import { fakeZplPrinter } from '../support/fake-zpl-printer.ts';
import { startStation } from '../support/station-process.ts';
import { cli } from './station-state.ts';

/*
 * The print queue across a stop and a start of the real `returns-station serve`: labels
 * asked for while the network printer is off wait in the data directory, go out once each when the
 * station starts again with the printer back, and are never sent again by later starts.
 */

const ACCOUNT = 1001;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function printJobs(origin: string, token: string): Promise<PrintJob[]> {
  const response = await call(origin, 'GET', '/api/v1/station/print-jobs?per_page=100', { token });
  expect(response.status, response.text).toBe(200);
  return (response.json as PrintJobListResponse).data;
}

it('labels asked for while the printer is off print once each after a restart with the printer back, and never again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'print-queue-restart-'));
  dirs.push(dir);
  cli(dir, 'token', 'create', '--account', String(ACCOUNT), '--name', 'account');
  const printer = await fakeZplPrinter({ up: false });

  let station = await startStation({ dataDir: dir });
  let { origin, stationToken: token } = station;
  const settings = await call(origin, 'PATCH', '/api/v1/station/settings', {
    token,
    body: { labels: { printer: { kind: 'zpl_tcp', host: '127.0.0.1', port: printer.port } } },
  });
  expect(settings.status, settings.text).toBe(200);
  const ret = await createReturn(origin, token, { account_id: ACCOUNT });
  const pkg = await createPackage(origin, token, ACCOUNT, ret.id);
  // Three inspected units: the station gives each a disposition, a bin and a unit id.
  const units: string[] = [];
  for (let k = 0; k < 3; k += 1) {
    const item = await call(origin, 'POST', `/api/v1/accounts/${ACCOUNT}/return_packages/${pkg.id}/line_items`, {
      token,
      body: { return_line_item_id: ret.return_line_items[0]?.id ?? null, condition: 'good' },
    });
    expect(item.status, item.text).toBe(201);
    units.push((item.json as { unit_id: string }).unit_id);
    const label = await call(origin, 'POST', `/api/v1/accounts/${ACCOUNT}/return_packages/${pkg.id}/line_items/${(item.json as { id: number }).id}/label`, {
      token,
      body: {},
    });
    expect(label.status, label.text).toBe(201);
  }
  // The printer is off: every job waits; the oldest was tried (the queue keeps their order, so it
  // tries the oldest until the printer takes it).
  const deadline = Date.now() + 10_000;
  let waiting = await printJobs(origin, token);
  // (Read between tries: a retry in progress shows the oldest as `sending` for a moment.)
  while (!((waiting.at(-1)?.attempts ?? 0) >= 1 && waiting.every((job) => job.state === 'waiting')) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    waiting = await printJobs(origin, token);
  }
  expect(waiting.map((job) => [job.unit_id, job.state])).toEqual(units.map((unit) => [unit, 'waiting']).reverse());
  expect(waiting.at(-1)?.last_error).toMatch(/does not answer/);
  expect(await station.stop()).toBe(0);

  // The printer is back; the station starts on the same data directory and sends what waited.
  await printer.up();
  station = await startStation({ dataDir: dir });
  ({ origin, stationToken: token } = station);
  const received = await printer.waitForJobs(units.length);
  expect(received.map((zpl) => /\^FH_\^FD([^^]*)\^FS/.exec(zpl)?.[1])).toEqual(units);
  let jobs = await printJobs(origin, token);
  const until = Date.now() + 10_000;
  while (!jobs.every((job) => job.state === 'printed') && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    jobs = await printJobs(origin, token);
  }
  expect(jobs.map((job) => job.state)).toEqual(['printed', 'printed', 'printed']);
  expect(await station.stop()).toBe(0);

  // Acknowledged jobs are never sent again: another start sends nothing.
  station = await startStation({ dataDir: dir });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(printer.jobs).toHaveLength(units.length);
  // A unit's label asked for again (a replayed request) answers the printed job and prints nothing.
  const again = await call(station.origin, 'POST', `/api/v1/accounts/${ACCOUNT}/return_packages/${pkg.id}/line_items/${jobs[0]?.line_item_id ?? 0}/label`, {
    token: station.stationToken,
    body: {},
  });
  expect(again.status).toBe(200);
  expect(again.json).toMatchObject({ state: 'printed' });
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(printer.jobs).toHaveLength(units.length);
  expect(await station.stop()).toBe(0);
  await printer.down();
}, 120_000);
