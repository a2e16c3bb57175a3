import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ApiClient, ApiError } from '#shared/api/client.ts';
import { returnBody, uniqueTracking } from '../api/support.ts';
import { startStation } from '../support/station-process.ts';
import { cli, createdPackageEvents, waitingPackageChanges } from './station-state.ts';

/*
 * Creates that arrive while a write runs in the engine share the next write
 * (electron/station/domain/script-batches.ts, docs/decisions/create-path.md). A create that fails
 * aborts its shared write, and its batch runs again one write each: on the real `serve`, under 32
 * concurrent clients, every create meant to fail (a tracking number already taken, one taken by the
 * client's own earlier create, a return that does not exist) fails alone with its own error, every
 * other one is acknowledged; after a stop and a start (the second with every old record cold) each
 * acknowledged package is there with its `package.created` event and its waiting sync change, and
 * no failed create left anything behind.
 */

const dir = mkdtempSync(join(tmpdir(), 'station-coalesced-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
  for (const o of outcomes.filter((x) => x.expected === 'taken')) expect([o.status, o.errorCode, o.existingId]).toEqual([409, 'DUPLICATE_TRACKING_NUMBER', takenId]);
  for (const o of outcomes.filter((x) => x.expected === 'no-return')) expect([o.status, o.errorCode]).toEqual([422, 'VALIDATION_FAILED']);
  const idOf = new Map(created.map((o) => [o.tracking, o.id]));
  for (const o of outcomes.filter((x) => x.expected === 'own')) expect([o.status, o.errorCode, o.existingId]).toEqual([409, 'DUPLICATE_TRACKING_NUMBER', idOf.get(o.tracking)]);
  expect(created.length).toBe(CLIENTS * CREATES_PER_CLIENT - 3 * (CLIENTS / 4));
  expect(new Set(created.map((o) => o.id)).size).toBe(created.length);

  const second = await startStation({ dataDir: dir, args: ['--hot-days', '0'] });
  try {
    const api = new ApiClient({ baseUrl: second.origin, token: second.stationToken });
    for (const o of created) expect((await api.getPackage(ACCOUNT, o.id)).tracking_number, `package ${o.id}`).toBe(o.tracking);
    const events = await createdPackageEvents(second.origin, second.stationToken, ACCOUNT);
    const waiting = await waitingPackageChanges(api);
    for (const o of created) {
      expect(events.has(o.id), `package.created of ${o.id}`).toBe(true);
      expect(waiting.has(o.id), `sync change of ${o.id}`).toBe(true);
    }
    // Nothing of a failed create: each failing tracking number is held by one package only (the first holder).
    for (const o of outcomes.filter((x) => x.expected !== 'created')) {
      const { data } = await api.listPackages(ACCOUNT, { tracking_number: o.tracking });
      expect(data.map((p) => p.id), o.tracking).toEqual(o.expected === 'no-return' ? [] : [o.existingId]);
    }
  } finally {
    expect(await second.stop()).toBe(0);
  }
}, 120_000);
