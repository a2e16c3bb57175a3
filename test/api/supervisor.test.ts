import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_ATTEMPTS, SIGN_IN_LOCK_MINUTES, SIGN_IN_TRIES_PER_MINUTE, SUPERVISOR_SESSION_MINUTES } from '#shared/api/supervisor.ts';
import { SUPERVISOR_TOKEN_MAX_DAYS } from '#shared/api/tokens.ts';
import { createToken } from '../../electron/station/domain/tokens.ts';
import type { Clock } from '../../electron/station/domain/clock.ts';
import { call, expectError, startStation, type TestStation } from './support.ts';

/*
 * The supervisor role over real HTTP: a terminal's station token (the UI link, the desktop window)
 * does the dock's work but is refused what only a supervisor may, with the one error shape; a
 * badge and PIN give a short session; wrong PINs lock the badge; another supervisor resets a PIN.
 * The station's clock is the test's, so a lock's end and a session's expiry are reached at once.
 */

let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs).toISOString() };
let s: TestStation;
let terminal: string;

beforeAll(async () => {
  s = await startStation({ clock });
  terminal = (await createToken(s.station.store, clock, { scope: 'station', role: 'terminal', accountId: null, name: 'UI link' })).secret;
});
afterAll(async () => s.close());

/** Every route only a supervisor may call, with a body it would take. */
const GATED: Array<[string, string, unknown]> = [
  ['PATCH', '/api/v1/station/settings', { currency: 'EUR' }],
  ['PUT', '/api/v1/station/disposition-rules', { rules: [{ conditions: ['new'], statuses: ['received'], disposition: 'RESTOCK', bin: 'A1' }] }],
  ['POST', '/api/v1/station/operators', { name: 'Nobody' }],
  ['PATCH', '/api/v1/station/operators/1', { name: 'Renamed' }],
  ['GET', '/api/v1/station/tokens', undefined],
  ['POST', '/api/v1/station/tokens', { scope: 'station' }],
  ['DELETE', '/api/v1/station/tokens/1', undefined],
  ['POST', '/api/v1/station/upstream', { url: 'http://127.0.0.1:9', token: 'x', accounts: [1] }],
  ['DELETE', '/api/v1/station/upstream', undefined],
  ['POST', '/api/v1/accounts/1/return_packages/1/review/release', {}],
  ['POST', '/api/v1/accounts/1/return_packages/1/review/confirm', { reason: 'empty box' }],
];

async function signIn(badge: string, pin: string, token = terminal, headers: Record<string, string> = {}) {
  return call(s.origin, 'POST', '/api/v1/station/supervisor-sessions', { token, body: { badge_code: badge, pin }, headers });
}

/** Another terminal's token (each has its own budget of sign-in tries). */
async function newTerminal(): Promise<string> {
  return (await createToken(s.station.store, clock, { scope: 'station', role: 'terminal', accountId: null, name: 'another terminal' })).secret;
}

function codeOf(answer: { status: number; json: unknown }): string {
  return answer.status < 300 ? String(answer.status) : ((answer.json as { error_code?: string }).error_code ?? String(answer.status));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

describe('supervisor', () => {
  let first: { token: string; expires_at: string; operator: { id: number; uid: string; role: string } };

  it('refuses a terminal token every change only a supervisor may make (403 SUPERVISOR_REQUIRED), and leaves the dock its reads', async () => {
    for (const [method, path, body] of GATED) {
      const details = expectError(await call(s.origin, method, path, { token: terminal, body }), 'SUPERVISOR_REQUIRED');
      expect(details.message).toMatch(/supervisor/);
    }
    for (const path of ['/api/v1/station/settings', '/api/v1/station/operators', '/api/v1/station/disposition-rules', '/api/v1/station']) {
      expect((await call(s.origin, 'GET', path, { token: terminal })).status).toBe(200);
    }
    // An account token is still refused as before (it is no station token at all).
    expectError(await call(s.origin, 'PATCH', '/api/v1/station/settings', { token: s.account1, body: { currency: 'EUR' } }), 'ACCOUNT_FORBIDDEN');
    // Nothing changed.
    expect(((await call(s.origin, 'GET', '/api/v1/station/settings', { token: terminal })).json as { currency: string | null }).currency).toBeNull();
  });

  it('takes its first supervisor from a terminal once; the session may change settings, and a second first supervisor is refused', async () => {
    const made = await call(s.origin, 'POST', '/api/v1/station/first-supervisor', {
      token: terminal,
      body: { name: 'Morgan', badge_code: 'SUP-1', pin: '2468', sign_in_key: 9 },
    });
    expect(made.status, made.text).toBe(201);
    first = made.json as typeof first;
    expect(first.operator).toMatchObject({ role: 'supervisor', sign_in_key: 9, has_pin: true, active: true });
    expect(first.operator.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(first.expires_at) - Date.now() - offsetMs).toBeGreaterThan((SUPERVISOR_SESSION_MINUTES - 1) * 60_000);
    expect(made.text).not.toContain('2468');

    const changed = await call(s.origin, 'PATCH', '/api/v1/station/settings', { token: first.token, body: { currency: 'EUR' } });
    expect(changed.status, changed.text).toBe(200);
    expect((changed.json as { currency: string }).currency).toBe('EUR');

    expectError(
      await call(s.origin, 'POST', '/api/v1/station/first-supervisor', { token: terminal, body: { name: 'Intruder', badge_code: 'SUP-X', pin: '1111' } }),
      'SUPERVISOR_EXISTS',
    );
    const listed = await call(s.origin, 'GET', '/api/v1/station/operators', { token: terminal });
    expect(listed.text).not.toMatch(/pin_hash|scrypt|2468/);
    expect((listed.json as { data: Array<{ name: string }> }).data.map((o) => o.name)).toEqual(['Morgan']);
  });

  it("never gives a terminal a supervisor's badge: its list has none, it asks about one scanned badge at a time, as often as it may try a PIN", async () => {
    const worker = await call(s.origin, 'POST', '/api/v1/station/operators', {
      token: first.token,
      body: { name: 'Dock worker Ana', badge_code: 'BADGE-ANA' },
    });
    expect(worker.status, worker.text).toBe(201);
    type Listed = { data: Array<{ name: string; role: string; badge_code: string | null }> };
    const badges = async (token: string) =>
      ((await call(s.origin, 'GET', '/api/v1/station/operators', { token })).json as Listed).data.map((o) => [o.name, o.role, o.badge_code]);
    // The terminal signs workers in by badge, offline too: it has theirs, never a supervisor's.
    const seen = await badges(terminal);
    expect(seen).toEqual([
      ['Morgan', 'supervisor', null],
      ['Dock worker Ana', 'worker', 'BADGE-ANA'],
    ]);
    expect(JSON.stringify(seen)).not.toContain('SUP-1');
    // A supervisor session and an administrative token see every badge (the Workers screen).
    expect(await badges(first.token)).toContainEqual(['Morgan', 'supervisor', 'SUP-1']);
    expect(await badges(s.stationToken)).toContainEqual(['Morgan', 'supervisor', 'SUP-1']);

    // One scanned code at a time: a PIN is needed for the supervisor's badge (as a scanner reads it) only.
    const asker = await newTerminal();
    const check = (badge: string) => call(s.origin, 'POST', '/api/v1/station/badge-checks', { token: asker, body: { badge_code: badge } });
    const answers: Array<[string, unknown]> = [];
    for (const badge of ['SUP-1', 'sup-1', 'BADGE-ANA', 'NOBODY-1']) answers.push([badge, (await check(badge)).json]);
    expect(answers).toEqual([
      ['SUP-1', { pin_needed: true }],
      ['sup-1', { pin_needed: true }],
      ['BADGE-ANA', { pin_needed: false }],
      ['NOBODY-1', { pin_needed: false }],
    ]);
    // Bad input is refused with its field named.
    expect(
      JSON.stringify(
        expectError(await call(s.origin, 'POST', '/api/v1/station/badge-checks', { token: asker, body: { badge: 'SUP-1' } }), 'VALIDATION_FAILED').fields,
      ),
    ).toContain('badge_code');
    for (let i = answers.length; i < SIGN_IN_TRIES_PER_MINUTE; i += 1) expect((await check(`GUESS-${i}`)).status).toBe(200);
    const refused = await check('SUP-1');
    expect(codeOf(refused)).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The checks spend no sign-in tries: the supervisor still signs in from that terminal.
    expect((await signIn('SUP-1', '2468', asker)).status).toBe(201);
  });

  it('refuses bad input with its field named: a PIN of letters, a supervisor without a PIN, a taken number key', async () => {
    const short = expectError(
      await call(s.origin, 'POST', '/api/v1/station/operators', {
        token: first.token,
        body: { name: 'Kim', role: 'supervisor', badge_code: 'SUP-2', pin: '12a4' },
      }),
      'VALIDATION_FAILED',
    );
    expect(JSON.stringify(short.fields)).toContain('pin');
    const noPin = expectError(
      await call(s.origin, 'POST', '/api/v1/station/operators', { token: first.token, body: { name: 'Kim', role: 'supervisor', badge_code: 'SUP-2' } }),
      'VALIDATION_FAILED',
    );
    expect(JSON.stringify(noPin.fields)).toContain('pin');
    const key = expectError(
      await call(s.origin, 'POST', '/api/v1/station/operators', { token: first.token, body: { name: 'Kim', sign_in_key: 9 } }),
      'VALIDATION_FAILED',
    );
    expect(JSON.stringify(key.fields)).toContain('sign_in_key');
    expect(((await call(s.origin, 'GET', '/api/v1/station/operators', { token: terminal })).json as { data: unknown[] }).data).toHaveLength(2);
  });

  it(`signs a supervisor in by badge and PIN; ${SIGN_IN_ATTEMPTS} wrong PINs lock the badge for ${SIGN_IN_LOCK_MINUTES} minutes, right PIN or not`, async () => {
    const worker = await call(s.origin, 'POST', '/api/v1/station/operators', {
      token: first.token,
      body: { name: 'Sam', badge_code: 'W-1', sign_in_key: 1, pin: '1357' },
    });
    expect(worker.status, worker.text).toBe(201);
    // A worker's badge and PIN are no supervisor's: the same answer as a wrong PIN.
    expectError(await signIn('W-1', '1357'), 'SIGN_IN_REFUSED');

    const ok = await signIn('sup-1', '2468'); // a badge as a scanner may send it: normalised
    expect(ok.status, ok.text).toBe(201);

    for (let i = 1; i < SIGN_IN_ATTEMPTS; i++) {
      const details = expectError(await signIn('SUP-1', '0000'), 'SIGN_IN_REFUSED');
      expect(details.message).toContain(`${SIGN_IN_ATTEMPTS - i} ${SIGN_IN_ATTEMPTS - i === 1 ? 'try' : 'tries'} left`);
    }
    const lockedNow = await signIn('SUP-1', '0000');
    expectError(lockedNow, 'SIGN_IN_LOCKED');
    expect(lockedNow.headers.get('retry-after')).toBe(String(SIGN_IN_LOCK_MINUTES * 60));
    // Locked: the right PIN is refused too, with the time left.
    offsetMs += (SIGN_IN_LOCK_MINUTES * 60 - 30) * 1000;
    const stillLocked = await signIn('SUP-1', '2468');
    expect(expectError(stillLocked, 'SIGN_IN_LOCKED').retry_after_seconds).toBe(30);
    // The session signed in before the lock still works: the lock stops sign-ins, not work.
    expect((await call(s.origin, 'GET', '/api/v1/station/tokens', { token: (ok.json as { token: string }).token })).status).toBe(200);
    offsetMs += 31_000;
    const after = await signIn('SUP-1', '2468');
    expect(after.status, after.text).toBe(201);
  });

  it(`ends a session ${SUPERVISOR_SESSION_MINUTES} minutes after its sign-in (401), and at sign-out`, async () => {
    const session = (await signIn('SUP-1', '2468')).json as { token: string };
    expect((await call(s.origin, 'GET', '/api/v1/station/tokens', { token: session.token })).status).toBe(200);
    offsetMs += SUPERVISOR_SESSION_MINUTES * 60_000 + 1000;
    expectError(await call(s.origin, 'GET', '/api/v1/station/tokens', { token: session.token }), 'INVALID_TOKEN');

    const next = (await signIn('SUP-1', '2468')).json as { token: string };
    expect((await call(s.origin, 'DELETE', '/api/v1/station/supervisor-sessions/current', { token: next.token })).status).toBe(204);
    expectError(await call(s.origin, 'GET', '/api/v1/station/tokens', { token: next.token }), 'INVALID_TOKEN');
    // Signing out with a terminal's token changes nothing for the terminal.
    expect((await call(s.origin, 'DELETE', '/api/v1/station/supervisor-sessions/current', { token: terminal })).status).toBe(204);
    expect((await call(s.origin, 'GET', '/api/v1/station', { token: terminal })).status).toBe(200);
  });

  it("lets another supervisor reset a PIN (the old PIN and the old sessions stop), and keeps the station's last supervisor", async () => {
    const morgan = (await signIn('SUP-1', '2468')).json as { token: string; operator: { id: number } };
    const kim = await call(s.origin, 'POST', '/api/v1/station/operators', {
      token: morgan.token,
      body: { name: 'Kim', role: 'supervisor', badge_code: 'SUP-2', pin: '8642' },
    });
    expect(kim.status, kim.text).toBe(201);
    const kimId = (kim.json as { id: number }).id;
    const kimSession = (await signIn('SUP-2', '8642')).json as { token: string };

    const reset = await call(s.origin, 'PATCH', `/api/v1/station/operators/${kimId}`, { token: morgan.token, body: { pin: '9753' } });
    expect(reset.status, reset.text).toBe(200);
    expectError(await call(s.origin, 'GET', '/api/v1/station/tokens', { token: kimSession.token }), 'INVALID_TOKEN');
    expectError(await signIn('SUP-2', '8642'), 'SIGN_IN_REFUSED');
    const kimAgain = (await signIn('SUP-2', '9753')).json as { token: string };

    // Kim deactivates Morgan: Morgan's session ends. Kim, now the last supervisor, cannot go.
    expect((await call(s.origin, 'PATCH', `/api/v1/station/operators/${morgan.operator.id}`, { token: kimAgain.token, body: { active: false } })).status).toBe(
      200,
    );
    expectError(await call(s.origin, 'GET', '/api/v1/station/tokens', { token: morgan.token }), 'INVALID_TOKEN');
    const last = expectError(
      await call(s.origin, 'PATCH', `/api/v1/station/operators/${kimId}`, { token: kimAgain.token, body: { role: 'worker' } }),
      'VALIDATION_FAILED',
    );
    expect(JSON.stringify(last.fields)).toContain('role');
    expectError(await call(s.origin, 'PATCH', `/api/v1/station/operators/${kimId}`, { token: kimAgain.token, body: { active: false } }), 'VALIDATION_FAILED');
    // An administrative token (the command line's) may do what a supervisor may.
    expect(
      (await call(s.origin, 'PATCH', `/api/v1/station/operators/${morgan.operator.id}`, { token: s.stationToken, body: { active: true, pin: '1122' } })).status,
    ).toBe(200);
    expect((await signIn('SUP-1', '1122')).status).toBe(201);
  });

  it('says in the tokens list which token is a terminal, an administrator or a session', async () => {
    const session = ((await signIn('SUP-2', '9753')).json as { token: string }).token;
    const tokens = ((await call(s.origin, 'GET', '/api/v1/station/tokens', { token: session })).json as { data: Array<{ name: string; role: string | null }> })
      .data;
    expect(tokens.find((t) => t.name === 'UI link')?.role).toBe('terminal');
    expect(tokens.find((t) => t.name === 'test station')?.role).toBe('admin');
    expect(tokens.find((t) => t.name === 'test account 1')?.role).toBeNull();
    expect(tokens.some((t) => t.role === 'supervisor')).toBe(true);
  });
});

describe('supervisor sign-in against a guesser', () => {
  const KIM_PIN = '9753';

  it(`counts tries sent at once before their answers: 40 wrong PINs at once check at most ${SIGN_IN_ATTEMPTS - 1}, lock the badge, and no late answer lifts the lock`, async () => {
    offsetMs += 10 * 60_000;
    const tokens = await Promise.all(Array.from({ length: 8 }, newTerminal));
    const answers = await Promise.all(tokens.flatMap((token) => Array.from({ length: 5 }, () => signIn('SUP-2', '0000', token))));
    const codes = answers.map(codeOf);
    expect(codes.filter((c) => c === 'SIGN_IN_REFUSED').length, codes.join()).toBeLessThanOrEqual(SIGN_IN_ATTEMPTS - 1);
    expect(
      codes.every((c) => c === 'SIGN_IN_REFUSED' || c === 'SIGN_IN_LOCKED'),
      codes.join(),
    ).toBe(true);
    // Every answer is in: the badge is locked, the right PIN included.
    expectError(await signIn('SUP-2', KIM_PIN, tokens[0]), 'SIGN_IN_LOCKED');
    offsetMs += SIGN_IN_LOCK_MINUTES * 60_000 + 1000;
    expect((await signIn('SUP-2', KIM_PIN, tokens[0])).status).toBe(201);
  });

  it(`takes at most ${SIGN_IN_TRIES_PER_MINUTE} tries a minute from one token, whatever the badges (429 RATE_LIMITED), and other tokens meanwhile`, async () => {
    offsetMs += 2 * 60_000;
    const guesser = await newTerminal();
    for (let i = 0; i < SIGN_IN_TRIES_PER_MINUTE; i++) expectError(await signIn(`NOBODY-${i}`, '1234', guesser), 'SIGN_IN_REFUSED');
    const limited = await signIn('SUP-2', KIM_PIN, guesser);
    const details = expectError(limited, 'RATE_LIMITED');
    expect(details.message).toContain(`${SIGN_IN_TRIES_PER_MINUTE} sign-in tries a minute`);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await signIn('SUP-2', KIM_PIN, await newTerminal())).status).toBe(201);
    offsetMs += 61_000;
    expect((await signIn('SUP-2', KIM_PIN, guesser)).status).toBe(201);
  });

  it("takes as long to refuse a badge that is no supervisor's as a supervisor's wrong PIN", async () => {
    offsetMs += 2 * 60_000;
    const token = await newTerminal();
    const unknown: number[] = [];
    const supervisor: number[] = [];
    for (let i = 0; i < SIGN_IN_ATTEMPTS - 1; i++) {
      for (const [badge, times] of [
        [`GHOST-${i}`, unknown],
        ['SUP-2', supervisor],
      ] as const) {
        const started = performance.now();
        expectError(await signIn(badge, '0000', token), 'SIGN_IN_REFUSED');
        times.push(performance.now() - started);
      }
    }
    expect((await signIn('SUP-2', KIM_PIN, token)).status).toBe(201);
    // Before, an unknown badge was refused in a tenth of the time (no hash was checked).
    expect(median(unknown), `unknown ${unknown.map(Math.round).join()} ms, supervisor ${supervisor.map(Math.round).join()} ms`).toBeGreaterThan(
      0.4 * median(supervisor),
    );
  });

  it('refuses an Idempotency-Key on sign-in and on the first supervisor (422 naming it): their answer holds a secret', async () => {
    const token = await newTerminal();
    const tokensBefore = ((await call(s.origin, 'GET', '/api/v1/station/tokens', { token: s.stationToken })).json as { data: unknown[] }).data.length;
    const signedIn = expectError(await signIn('SUP-2', KIM_PIN, token, { 'idempotency-key': 'sign-in-1' }), 'VALIDATION_FAILED');
    expect(signedIn.message).toMatch(/Idempotency-Key/);
    expect(JSON.stringify(signedIn.fields)).toContain('Idempotency-Key');
    const first = await call(s.origin, 'POST', '/api/v1/station/first-supervisor', {
      token: terminal,
      headers: { 'idempotency-key': 'first-1' },
      body: { name: 'Again', badge_code: 'SUP-Z', pin: '1111' },
    });
    expectError(first, 'VALIDATION_FAILED');
    expect(((await call(s.origin, 'GET', '/api/v1/station/tokens', { token: s.stationToken })).json as { data: unknown[] }).data).toHaveLength(tokensBefore);
    // Without the key, the same sign-in works.
    expect((await signIn('SUP-2', KIM_PIN, token)).status).toBe(201);
    // The document says so: no Idempotency-Key among the parameters of either.
    type Operation = { parameters?: Array<{ name: string }> };
    const doc = (await (await fetch(`${s.origin}/openapi.json`)).json()) as { paths: Record<string, Record<string, Operation>> };
    const headersOf = (path: string) => doc.paths[path]?.post?.parameters?.map((p) => p.name) ?? [];
    expect(headersOf('/api/v1/station/supervisor-sessions')).not.toContain('Idempotency-Key');
    expect(headersOf('/api/v1/station/first-supervisor')).not.toContain('Idempotency-Key');
    expect(headersOf('/api/v1/station/operators')).toContain('Idempotency-Key');
  });

  it(`bounds a token made by a supervisor session to ${SUPERVISOR_TOKEN_MAX_DAYS} days and ends it with its supervisor's PIN`, async () => {
    const kim = (await signIn('SUP-2', KIM_PIN, await newTerminal())).json as { token: string; operator: { id: number } };
    const made = await call(s.origin, 'POST', '/api/v1/station/tokens', { token: kim.token, body: { scope: 'station', name: 'integration by Kim' } });
    expect(made.status, made.text).toBe(201);
    const token = made.json as { secret: string; expires_at: string; created_at: string; role: string };
    expect(token.role).toBe('admin');
    expect(Math.abs(Date.parse(token.expires_at) - Date.parse(token.created_at) - SUPERVISOR_TOKEN_MAX_DAYS * 86_400_000)).toBeLessThan(1000);
    const tooLong = expectError(
      await call(s.origin, 'POST', '/api/v1/station/tokens', { token: kim.token, body: { scope: 'station', expires_in_days: SUPERVISOR_TOKEN_MAX_DAYS + 1 } }),
      'VALIDATION_FAILED',
    );
    expect(JSON.stringify(tooLong.fields)).toContain('expires_in_days');
    // The command line's administrative token makes tokens without that bound.
    const admins = (await call(s.origin, 'POST', '/api/v1/station/tokens', { token: s.stationToken, body: { scope: 'station', name: 'integration by admin' } }))
      .json as { secret: string; expires_at: string | null };
    expect(admins.expires_at).toBeNull();

    // Kim's session ended by its own clock: the token Kim made still works.
    offsetMs += SUPERVISOR_SESSION_MINUTES * 60_000 + 1000;
    expect((await call(s.origin, 'GET', '/api/v1/station/tokens', { token: token.secret })).status).toBe(200);
    // A new PIN for Kim ends it; the administrator's stays.
    expect((await call(s.origin, 'PATCH', `/api/v1/station/operators/${kim.operator.id}`, { token: s.stationToken, body: { pin: '4444' } })).status).toBe(200);
    expectError(await call(s.origin, 'GET', '/api/v1/station/tokens', { token: token.secret }), 'INVALID_TOKEN');
    expect((await call(s.origin, 'GET', '/api/v1/station/tokens', { token: admins.secret })).status).toBe(200);
  });

  it('refuses a badge another operator holds in another case (a scan reads both the same)', async () => {
    const session = ((await signIn('SUP-2', '4444', await newTerminal())).json as { token: string }).token;
    expect((await call(s.origin, 'POST', '/api/v1/station/operators', { token: session, body: { name: 'Lee', badge_code: 'sup-7' } })).status).toBe(201);
    const taken = expectError(
      await call(s.origin, 'POST', '/api/v1/station/operators', {
        token: session,
        body: { name: 'Ray', role: 'supervisor', badge_code: 'SUP-7', pin: '5555' },
      }),
      'VALIDATION_FAILED',
    );
    expect(taken.message).toContain('Lee');
    expect(JSON.stringify(taken.fields)).toContain('badge_code');
    const names = ((await call(s.origin, 'GET', '/api/v1/station/operators', { token: terminal })).json as { data: Array<{ name: string }> }).data.map(
      (o) => o.name,
    );
    expect(names).toContain('Lee');
    expect(names).not.toContain('Ray');
    // Lee's own badge in another case is still Lee's.
    const lee = (
      (await call(s.origin, 'GET', '/api/v1/station/operators', { token: terminal })).json as { data: Array<{ id: number; name: string }> }
    ).data.find((o) => o.name === 'Lee');
    expect((await call(s.origin, 'PATCH', `/api/v1/station/operators/${lee?.id ?? 0}`, { token: session, body: { badge_code: 'SUP-7' } })).status).toBe(200);
  });

  it('says in /openapi.json which operations need a supervisor (x-required-role)', async () => {
    type Operation = { 'x-required-role'?: string[] };
    const doc = (await (await fetch(`${s.origin}/openapi.json`)).json()) as { paths: Record<string, Record<string, Operation>> };
    const op = (path: string, method: string) => doc.paths[path]?.[method] ?? {};
    for (const [method, path] of GATED)
      expect(
        op(path.replace(/\/1$/, '/{id}').replace('/accounts/1/return_packages/1/', '/accounts/{account_id}/return_packages/{id}/'), method.toLowerCase())[
          'x-required-role'
        ],
        `${method} ${path}`,
      ).toEqual(['supervisor', 'admin']);
    expect(op('/api/v1/station/settings', 'get')['x-required-role']).toBeUndefined();
  });
});
