import { expect, it } from 'vitest';
import { sleep } from '../api/support.ts';
import { startStation } from '../support/station-process.ts';

/* Debug logs (a line per request) never carry a token or a media capability URL. */

it('redacts ?token=, /media/<capability> and Authorization from debug logs', async () => {
  const station = await startStation({ env: { RETURNS_STATION_LOG_LEVEL: 'debug' } });
  const querySecret = 'rst_QUERYSECRETqueryQUERYsecretQUERYsecret12345';
  const capability = 'CAPABILITYcapabilityCAPABILITYcapability123';
  await fetch(`${station.origin}/api/v1/station?token=${querySecret}`);
  await fetch(`${station.origin}/api/v1/station?page=1&access_token=plain-secret-value`);
  await fetch(`${station.origin}/media/${capability}`);
  await fetch(`${station.origin}/api/v1/station`, { headers: { authorization: `Bearer ${station.stationToken}` } });
  await fetch(`${station.origin}/api/v1/station/${station.stationToken}`);
  await sleep(200);
  expect(await station.stop()).toBe(0);
  const log = station.output().stderr;
  expect(log).toMatch(/"url":"\/media\/\[redacted\]"/);
  expect(log).toMatch(/token=\[redacted\]/);
  // Each request's lines name it (its logger is made on first use: api/http/request-logger.ts).
  expect(log).toMatch(/"reqId":"[^"]+".*"url":"\/api\/v1\/station"/);
  for (const secret of [querySecret, capability, 'plain-secret-value', station.stationToken]) expect(log).not.toContain(secret);
}, 30_000);
