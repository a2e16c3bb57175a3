import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ApiClient, ApiError } from '#shared/api/client.ts';
import { returnBody, uniqueTracking } from '../api/support.ts';
import { startStation } from '../support/station-process.ts';
import { cli, expectCreatesKept } from './station-state.ts';

/*
 * A create is one durable write that reads the return, checks the tracking number, adds the package
 * and writes its change-log entry and its sync outbox slot (docs/decisions/create-path.md). Under
 * 32 concurrent clients on the real `serve`, with a stop and a start (the second with a hot-set
 * window of 0): every acknowledged package is there, with its `package.created` event and its
 * waiting sync change; a tracking number two clients race for is taken by exactly one of them, and
 * is still taken after the start.
 */

const dir = mkdtempSync(join(tmpdir(), 'station-create-path-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ACCOUNT = 1002;
const CLIENTS = 32;
const CREATES_PER_CLIENT = 6;

interface Outcome {
  tracking: string;
  id?: number;
  /** The `existing_id` of a 409 DUPLICATE_TRACKING_NUMBER. */
  duplicateOf?: number;
}

async function client(api: ApiClient, returnId: number, pair: string): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let i = 0; i < CREATES_PER_CLIENT; i += 1) {
    // Two clients share each tracking number (`pair`); the other numbers are this client's own.
    const tracking = i % 2 === 0 ? `${pair}-${i}` : uniqueTracking('OWN');
    try {
      const created = await api.createPackage(ACCOUNT, { return_id: returnId, tracking_number: tracking, status: 'in_transit' });
      outcomes.push({ tracking, id: created.id });
    } catch (error) {
      if (!(error instanceof ApiError) || error.errorCode !== 'DUPLICATE_TRACKING_NUMBER') throw error;
      expect(error.status).toBe(409);
      outcomes.push({ tracking, duplicateOf: error.details.existing_id ?? -1 });
    }
  }
  return outcomes;
}

it('keeps every create of 32 concurrent clients, with its event and sync change, and a raced tracking number once, across a stop and a start', async () => {
  const accountToken = cli(dir, 'token', 'create', '--account', String(ACCOUNT)).trim();
  const first = await startStation({ dataDir: dir, args: ['--demo'] });
  const outcomes: Outcome[] = [];
  let returnId: number | undefined;
  try {
    const ret = await new ApiClient({ baseUrl: first.origin, token: accountToken }).createReturn(returnBody({ email: 'create.path@example.com' }));
    // The station token: an account token's hourly budget is not what this test is about.
    returnId = ret.id;
    const api = new ApiClient({ baseUrl: first.origin, token: first.stationToken });
    const race = uniqueTracking('RACE');
    const results = await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(api, ret.id, `${race}-${Math.floor(c / 2)}`)));
    outcomes.push(...results.flat());
  } finally {
    expect(await first.stop()).toBe(0);
  }

  const created = outcomes.filter((o): o is Outcome & { id: number } => o.id !== undefined);
  const refused = outcomes.filter((o) => o.duplicateOf !== undefined);
  const winnerOf = new Map(created.map((o) => [o.tracking, o.id]));
  // Each raced number: one create and one refusal naming the package that holds it.
  expect(refused.length).toBe((CLIENTS / 2) * (CREATES_PER_CLIENT / 2));
  for (const o of refused) expect(o.duplicateOf, o.tracking).toBe(winnerOf.get(o.tracking));
  expect(created.length).toBe(CLIENTS * CREATES_PER_CLIENT - refused.length);
  expect(new Set(created.map((o) => o.id)).size).toBe(created.length);

  const second = await startStation({ dataDir: dir, args: ['--hot-days', '0'] });
  try {
    const api = new ApiClient({ baseUrl: second.origin, token: second.stationToken });
    await expectCreatesKept(second.origin, second.stationToken, ACCOUNT, created);
    // Still taken after the start.
    const [raced] = refused;
    if (!raced || returnId === undefined) throw new Error('no raced tracking number');
    const again = await api.createPackage(ACCOUNT, { return_id: returnId, tracking_number: raced.tracking }).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(ApiError);
    expect((again as ApiError).errorCode).toBe('DUPLICATE_TRACKING_NUMBER');
    expect((again as ApiError).details.existing_id).toBe(winnerOf.get(raced.tracking));
  } finally {
    expect(await second.stop()).toBe(0);
  }
}, 120_000);
