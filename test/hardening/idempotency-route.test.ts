import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, returnBody, startStation, type TestStation } from '../api/support.ts';

/* An Idempotency-Key names one route, however its URL is spelled. */

let s: TestStation;
beforeAll(async () => {
  s = await startStation();
});
afterAll(() => s.close());

it('a retry to another spelling of the same route replays the first answer instead of creating twice', async () => {
  const body = returnBody({ email: 'spelling@example.com' });
  const headers = { 'idempotency-key': 'spelled-twice' };
  const first = await call(s.origin, 'POST', '/returns', { token: s.account1, body, headers });
  expect(first.status, first.text).toBe(200);
  const second = await call(s.origin, 'POST', '/retur%6Es', { token: s.account1, body, headers });
  expect(second.status, second.text).toBe(200);
  expect(second.headers.get('idempotent-replayed')).toBe('true');
  expect((second.json as { id: number }).id).toBe((first.json as { id: number }).id);
  expect(s.station.store.count('returns', {})).toBe(1);
});
