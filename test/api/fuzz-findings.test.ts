import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockDaySchema } from '#shared/api/dock-day.ts';
import { call, rawCall, startStation, type TestStation } from './support.ts';

/*
 * The three defects a fuzzer driven by /openapi.json found (issue 25, item 7): dates before the year
 * 1000, multipart parts in another order or without a file name, and a method the station does not
 * know. The walk over the whole document is test/api/openapi-walk.test.ts.
 */

let s: TestStation;

beforeAll(async () => {
  s = await startStation();
});
afterAll(async () => {
  await s.close();
});

describe('a dock day before the year 1000 keeps its four digits', () => {
  it.each(['0195-06-06', '0001-01-01', '0000-02-29', '0099-12-31', '0999-12-31', '2026-02-28'])('%s', async (date) => {
    const day = await call(s.origin, 'GET', `/api/v1/station/dock-day?date=${date}`, { token: s.stationToken });
    expect(day.status, day.text).toBe(200);
    expect(DockDaySchema.parse(day.json).date).toBe(date);
    const csv = await call(s.origin, 'GET', `/api/v1/station/dock-day/receipts.csv?date=${date}`, { token: s.stationToken });
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="receipts-${date}.csv"`);
  });
});

describe('a method the station does not know is a 404, body or none', () => {
  it.each(['QUERY', 'PROPFIND', 'SEARCH', 'OPTIONS', 'PUT'])('%s /api/v1/station', async (method) => {
    const bare = await rawCall(s.origin, { method, path: '/api/v1/station', headers: { authorization: `Bearer ${s.stationToken}` } });
    expect({ status: bare.status, code: (JSON.parse(bare.text) as { error_code: string }).error_code }, bare.text).toEqual({ status: 404, code: 'NOT_FOUND' });
    const withJson = await rawCall(s.origin, {
      method,
      path: '/api/v1/station',
      headers: { authorization: `Bearer ${s.stationToken}`, 'content-type': 'application/json', 'content-length': '7' },
      body: '{"a":1}',
    });
    expect({ status: withJson.status, code: (JSON.parse(withJson.text) as { error_code: string }).error_code }, withJson.text).toEqual({ status: 404, code: 'NOT_FOUND' });
  });
});
