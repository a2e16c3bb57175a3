import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ApiClient, ApiError } from '#shared/api/client.ts';
import { returnBody, uniqueTracking } from '../api/support.ts';
import { startStation } from '../support/station-process.ts';
import { cli, expectCreatesKept, packageEvents, waitingPackageChanges } from './station-state.ts';

/*
 * Package creates and updates that arrive while a write runs in the engine share the next write
 * (electron/station/domain/script-batches.ts, docs/decisions/create-path.md). A script that fails
 * aborts its shared write, and its batch runs again one write each: on the real `serve`, under 32
 * concurrent clients, every create or update meant to fail (a tracking number already taken, one
 * taken by the client's own earlier create, a return that does not exist, a status move the package
 * cannot make) fails alone with its own error, every other one is acknowledged; after a stop and a
 * start (the second with every old record cold) each acknowledged change is there with its event
 * and its waiting sync change, and no failed one left anything behind.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'station-coalesced-'));
  dirs.push(dir);
  return dir;
}

const ACCOUNT = 1002;
const CLIENTS = 32;
const CREATES_PER_CLIENT = 8;
const MISSING_RETURN = 999_999;

type Expected = 'created' | 'taken' | 'own' | 'no-return';

interface Outcome {
  expected: Expected;
  tracking: string;
  id?: number;
  status?: number;
  errorCode?: string;
  existingId?: number;
}

/** What create `i` of client `c` is meant to do: most succeed, one in four clients has a failing one. */
function planOf(c: number, i: number): Expected {
  if (c % 4 === 0 && i === 3) return 'taken';
  if (c % 4 === 1 && i === 5) return 'no-return';
  if (c % 4 === 2 && i === 6) return 'own';
  return 'created';
}

async function client(api: ApiClient, c: number, returnId: number, taken: string): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let i = 0; i < CREATES_PER_CLIENT; i += 1) {
    const expected = planOf(c, i);
    // 'own': the tracking number of this client's first create, acknowledged before.
    const tracking = expected === 'taken' ? taken : expected === 'own' ? (outcomes[0]?.tracking ?? '') : uniqueTracking(`C${c}-`);
    const body = { return_id: expected === 'no-return' ? MISSING_RETURN : returnId, tracking_number: tracking, status: 'in_transit' as const };
    try {
      const created = await api.createPackage(ACCOUNT, body);
      outcomes.push({ expected, tracking, id: created.id });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      outcomes.push({ expected, tracking, status: error.status, errorCode: error.errorCode, existingId: error.details.existing_id });
    }
  }
  return outcomes;
}

it('fails a failing create alone among 32 concurrent clients, and keeps every acknowledged one across a stop and a start', async () => {
  const dir = dataDir();
  cli(dir, 'token', 'create', '--account', String(ACCOUNT));
  const first = await startStation({ dataDir: dir, args: ['--demo'] });
  const outcomes: Outcome[] = [];
  let takenId: number | undefined;
  try {
    const api = new ApiClient({ baseUrl: first.origin, token: first.stationToken });
    const ret = await api.createReturn({ ...returnBody({ email: 'coalesced@example.com' }), account_id: ACCOUNT });
    const taken = uniqueTracking('TAKEN');
    takenId = (await api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: taken })).id;
    const results = await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(api, c, ret.id, taken)));
    outcomes.push(...results.flat());
  } finally {
    expect(await first.stop()).toBe(0);
  }

  const created = outcomes.filter((o): o is Outcome & { id: number } => o.id !== undefined);
  // Exactly the creates meant to fail failed, each with its own error.
  for (const o of outcomes) expect(o.id !== undefined, `${o.expected} ${o.tracking}: ${o.errorCode ?? 'created'}`).toBe(o.expected === 'created');
  for (const o of outcomes.filter((x) => x.expected === 'taken'))
    expect([o.status, o.errorCode, o.existingId]).toEqual([409, 'DUPLICATE_TRACKING_NUMBER', takenId]);
  for (const o of outcomes.filter((x) => x.expected === 'no-return')) expect([o.status, o.errorCode]).toEqual([422, 'VALIDATION_FAILED']);
  const idOf = new Map(created.map((o) => [o.tracking, o.id]));
  for (const o of outcomes.filter((x) => x.expected === 'own'))
    expect([o.status, o.errorCode, o.existingId]).toEqual([409, 'DUPLICATE_TRACKING_NUMBER', idOf.get(o.tracking)]);
  expect(created.length).toBe(CLIENTS * CREATES_PER_CLIENT - 3 * (CLIENTS / 4));
  expect(new Set(created.map((o) => o.id)).size).toBe(created.length);

  const second = await startStation({ dataDir: dir, args: ['--hot-days', '0'] });
  try {
    const api = new ApiClient({ baseUrl: second.origin, token: second.stationToken });
    await expectCreatesKept(second.origin, second.stationToken, ACCOUNT, created);
    // Nothing of a failed create: each failing tracking number is held by one package only (the first holder).
    for (const o of outcomes.filter((x) => x.expected !== 'created')) {
      const { data } = await api.listPackages(ACCOUNT, { tracking_number: o.tracking });
      expect(
        data.map((p) => p.id),
        o.tracking,
      ).toEqual(o.expected === 'no-return' ? [] : [o.existingId]);
    }
  } finally {
    expect(await second.stop()).toBe(0);
  }
}, 120_000);

const PACKAGES = 16;
const UPDATES_PER_CLIENT = 6;

interface UpdateOutcome {
  packageId: number;
  /** Each update sets a weight of its own. */
  weight: number;
  ok: boolean;
  meantToFail: boolean;
  errorCode?: string;
}

it('fails a failing update alone among 32 concurrent clients, two of them on each package, and keeps every acknowledged one across a stop and a start', async () => {
  const dir = dataDir();
  cli(dir, 'token', 'create', '--account', String(ACCOUNT));
  const first = await startStation({ dataDir: dir, args: ['--demo'] });
  const outcomes: UpdateOutcome[] = [];
  const packages: Array<{ id: number; tracking: string }> = [];
  try {
    const api = new ApiClient({ baseUrl: first.origin, token: first.stationToken });
    const ret = await api.createReturn({ ...returnBody({ email: 'coalesced.updates@example.com' }), account_id: ACCOUNT });
    for (let p = 0; p < PACKAGES; p += 1) {
      const tracking = uniqueTracking('UPD');
      packages.push({ id: (await api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking, status: 'in_transit' })).id, tracking });
    }
    // Clients c and c + 16 update the same package; one in four clients makes one update meant to fail.
    const results = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const own: UpdateOutcome[] = [];
        const pkg = packages[c % PACKAGES];
        if (!pkg) throw new Error('no package');
        for (let i = 0; i < UPDATES_PER_CLIENT; i += 1) {
          const weight = 1000 + 10 * c + i;
          const fails = (c % 4 === 0 && i === 2) || (c % 4 === 1 && i === 4);
          // A move back to pending (not allowed from in transit), or the tracking number of another package.
          const body = !fails
            ? { weight }
            : c % 4 === 0
              ? { weight, status: 'pending' as const }
              : { weight, tracking_number: packages[(c + 1) % PACKAGES]?.tracking ?? '' };
          try {
            await api.updatePackage(ACCOUNT, pkg.id, body);
            own.push({ packageId: pkg.id, weight, ok: true, meantToFail: fails });
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            own.push({ packageId: pkg.id, weight, ok: false, meantToFail: fails, errorCode: error.errorCode });
          }
        }
        return own;
      }),
    );
    outcomes.push(...results.flat());
  } finally {
    expect(await first.stop()).toBe(0);
  }

  for (const o of outcomes) expect(o.ok, `weight ${o.weight}: ${o.errorCode ?? 'ok'}`).toBe(!o.meantToFail);
  expect(
    outcomes
      .filter((o) => !o.ok)
      .map((o) => o.errorCode)
      .sort(),
  ).toEqual([...Array<string>(CLIENTS / 4).fill('DUPLICATE_TRACKING_NUMBER'), ...Array<string>(CLIENTS / 4).fill('INVALID_STATUS_TRANSITION')]);

  const second = await startStation({ dataDir: dir, args: ['--hot-days', '0'] });
  try {
    const api = new ApiClient({ baseUrl: second.origin, token: second.stationToken });
    const ours = new Set(packages.map((p) => p.id));
    const updated = (await packageEvents(second.origin, second.stationToken, ACCOUNT, 'updated')).filter((e) => ours.has(e.id));
    const acknowledged = outcomes.filter((o) => o.ok);
    // One `package.updated` event per acknowledged update, none for a failed one.
    expect(updated.map((e) => e.weight).sort()).toEqual(acknowledged.map((o) => o.weight).sort());
    const waiting = await waitingPackageChanges(api);
    for (const { id, tracking } of packages) {
      const stored = await api.getPackage(ACCOUNT, id);
      // The last acknowledged update of the package wins, and nothing of a failed one is there.
      expect(stored.weight, `package ${id}`).toBe(updated.filter((e) => e.id === id).at(-1)?.weight);
      expect([stored.status, stored.tracking_number]).toEqual(['in_transit', tracking]);
      expect(waiting.has(id), `sync change of ${id}`).toBe(true);
    }
  } finally {
    expect(await second.stop()).toBe(0);
  }
}, 120_000);
