import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ApiClient, ApiError } from '#shared/api/client.ts';
import type { Operator } from '#shared/api/station.ts';
import { DatabaseSync } from 'node:sqlite';
import { STORE_FILE } from '../../electron/station/store/index.ts';
import { STATION_BIN, startStation } from '../support/station-process.ts';
import { cli } from './station-state.ts';

/*
 * Workers and supervisors through the doors a user uses, across a real stop and start of
 * `returns-station serve`: the first supervisor from the UI link's terminal token, a worker added by
 * the command line while the station runs (through its API) and while it is stopped, a PIN reset by
 * the command line; badges, keys, uids and PINs survive the restart, and the terminal token alone
 * still cannot change anything only a supervisor may. A UI link stored before tokens had roles is a
 * terminal's after a restart; the command line's tokens of that age stay administrative.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The real command, not blocking this process; `stdin` is written to it (a PIN for `--pin -`). */
function operatorCli(dataDir: string, args: string[], stdin = ''): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [STATION_BIN, 'operator', ...args, '--data-dir', dataDir], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ApiError) return error.errorCode;
  }
  return 'not refused';
}

it('keeps workers, keys, uids and PINs across a restart; the command line adds and resets while the station runs and while it is stopped', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'supervisor-restart-'));
  dirs.push(dir);
  let station = await startStation({ dataDir: dir });
  let terminal = new ApiClient({ baseUrl: station.origin, token: station.uiToken });
  let firstUid: string;
  try {
    // A new station: the UI link's token takes the first supervisor, and nothing more.
    expect((await terminal.listOperators()).data).toEqual([]);
    const first = await terminal.createFirstSupervisor({ name: 'Morgan', badge_code: 'SUP-1', pin: '2468', sign_in_key: 9 });
    firstUid = first.operator.uid;
    expect(await refusal(terminal.createOperator({ name: 'Sneaky' }))).toBe('SUPERVISOR_REQUIRED');
    expect(await refusal(terminal.createFirstSupervisor({ name: 'Second', badge_code: 'SUP-X', pin: '1111' }))).toBe('SUPERVISOR_EXISTS');
    const supervisor = terminal.withToken(first.token);
    await supervisor.createOperator({ name: 'Ada', badge_code: 'BADGE-ADA', sign_in_key: 1 });

    // The command line while the station runs: through its API, no lock refused.
    const added = await operatorCli(dir, ['add', '--name', 'Bo', '--badge', 'BADGE-BO', '--key', '2']);
    expect(added.status, added.stderr).toBe(0);
    const boId = Number(added.stdout.trim());
    expect((await terminal.listOperators()).data.find((o) => o.id === boId)).toMatchObject({ name: 'Bo', sign_in_key: 2, role: 'worker', active: true });
    const taken = await operatorCli(dir, ['add', '--name', 'Cy', '--key', '2']);
    expect(taken.status).toBe(1);
    expect(taken.stderr).toMatch(/Key 2 already signs in Bo/);
    const badPin = await operatorCli(dir, ['add', '--name', 'Di', '--badge', 'SUP-2', '--supervisor', '--pin', '12']);
    expect(badPin.status).toBe(2);
    expect(badPin.stderr).toMatch(/--pin: .*4–8 digits/);
    const listed = await operatorCli(dir, ['list']);
    expect(listed.stdout).toMatch(/Morgan\s+SUP-1\s+9\s+supervisor\s+set\s+yes/);
    expect(listed.stdout).not.toMatch(/2468|scrypt/);
  } finally {
    expect(await station.stop()).toBe(0);
  }

  // Stopped: the command line opens the store itself.
  const offline = await operatorCli(dir, ['add', '--name', 'Eve', '--badge', 'SUP-3', '--supervisor', '--pin', '-', '--key', '5'], '8642\n');
  expect(offline.status, offline.stderr).toBe(0);

  station = await startStation({ dataDir: dir });
  terminal = new ApiClient({ baseUrl: station.origin, token: station.uiToken });
  try {
    const workers: Operator[] = (await terminal.listOperators()).data;
    // A terminal is never given a supervisor's badge (it asks the station about a badge it scans).
    expect(workers.map((o) => [o.name, o.badge_code, o.sign_in_key, o.role, o.has_pin, o.active])).toEqual([
      ['Morgan', null, 9, 'supervisor', true, true],
      ['Ada', 'BADGE-ADA', 1, 'worker', false, true],
      ['Bo', 'BADGE-BO', 2, 'worker', false, true],
      ['Eve', null, 5, 'supervisor', true, true],
    ]);
    const admin = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
    expect((await admin.listOperators()).data.map((o) => o.badge_code)).toEqual(['SUP-1', 'BADGE-ADA', 'BADGE-BO', 'SUP-3']);
    expect(workers[0]?.uid).toBe(firstUid);
    expect(new Set(workers.map((o) => o.uid)).size).toBe(4);
    // The new UI link is a terminal's too; the PINs still sign in.
    expect(await refusal(terminal.updateStationSettings({ currency: 'EUR' }))).toBe('SUPERVISOR_REQUIRED');
    const eve = await terminal.createSupervisorSession({ badge_code: 'SUP-3', pin: '8642' });
    const morgan = await terminal.createSupervisorSession({ badge_code: 'SUP-1', pin: '2468' });
    expect((await terminal.withToken(morgan.token).updateStationSettings({ currency: 'EUR' })).currency).toBe('EUR');

    // A PIN reset by the command line while the station runs: the old PIN and the open session stop.
    const reset = await operatorCli(dir, ['set', String(eve.operator.id), '--pin', '-'], '1357\n');
    expect(reset.status, reset.stderr).toBe(0);
    expect(await refusal(terminal.withToken(eve.token).listTokens())).toBe('INVALID_TOKEN');
    expect(await refusal(terminal.createSupervisorSession({ badge_code: 'SUP-3', pin: '8642' }))).toBe('SIGN_IN_REFUSED');
    expect((await terminal.createSupervisorSession({ badge_code: 'SUP-3', pin: '1357' })).operator.name).toBe('Eve');
  } finally {
    expect(await station.stop()).toBe(0);
  }
}, 120_000);

it("takes a UI link stored before roles as a terminal's after a restart; the command line's tokens stay administrative", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'supervisor-old-tokens-'));
  dirs.push(dir);
  const commandLine = cli(dir, 'token', 'create', '--station', '--name', 'integration').trim();
  let station = await startStation({ dataDir: dir });
  const oldLink = station.uiToken;
  expect(await station.stop()).toBe(0);

  // The tokens as a version before roles stored them: no `role`.
  const db = new DatabaseSync(join(dir, STORE_FILE));
  const rows = db.prepare('SELECT k, v FROM tokens').all() as Array<{ k: number; v: string }>;
  for (const row of rows) {
    const token = JSON.parse(row.v) as Record<string, unknown>;
    Reflect.deleteProperty(token, 'role');
    db.prepare('UPDATE tokens SET v = ? WHERE k = ?').run(JSON.stringify(token), row.k);
  }
  expect(rows.length).toBeGreaterThanOrEqual(3);
  db.close();

  station = await startStation({ dataDir: dir });
  try {
    const link = new ApiClient({ baseUrl: station.origin, token: oldLink });
    const admin = new ApiClient({ baseUrl: station.origin, token: commandLine });
    // The old link still does the dock's work, and no more.
    expect((await link.station()).name).toBeTruthy();
    expect(await refusal(link.updateStationSettings({ currency: 'EUR' }))).toBe('SUPERVISOR_REQUIRED');
    expect(await refusal(link.createToken({ scope: 'station' }))).toBe('SUPERVISOR_REQUIRED');
    // The command line's own token, stored without a role too, may change the station.
    expect((await admin.updateStationSettings({ currency: 'EUR' })).currency).toBe('EUR');
    const tokens = (await admin.listTokens()).data;
    const rolesOf = (prefix: string) => tokens.filter((t) => t.name.startsWith(prefix)).map((t) => t.role);
    expect(rolesOf('integration')).toEqual(['admin']);
    expect(rolesOf('UI link of serve on ')).toEqual(['terminal', 'terminal']);
    expect(rolesOf('Command line of serve on ')).toEqual(['admin', 'admin']);
  } finally {
    expect(await station.stop()).toBe(0);
  }
}, 120_000);
