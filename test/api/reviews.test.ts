import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackageLineItem } from '#shared/api/line-items.ts';
import type { PackageReviewAnswer, ReviewedPackage, ReviewList } from '#shared/api/reviews.ts';
import { createToken } from '../../electron/station/domain/tokens.ts';
import { holdForReview } from '../../electron/station/domain/reviews.ts';
import { call, createPackage, createReturn, expectError, startStation, type TestStation } from './support.ts';

/*
 * The review over real HTTP: the list of held packages (why, when), a package's review, and the
 * supervisor's two decisions — who and when recorded, the units' dispositions after each, the
 * confirmed finding in the package's notes, and every refusal with its plain error, changing nothing.
 */

let s: TestStation;
let terminal: string;
let supervisor: string;
let supervisorId: number;
const A1 = '/api/v1/accounts/1';

beforeAll(async () => {
  s = await startStation();
  terminal = (await createToken(s.station.store, s.station.ctx.clock, { scope: 'station', role: 'terminal', accountId: null, name: 'UI link' })).secret;
  const first = await call(s.origin, 'POST', '/api/v1/station/first-supervisor', {
    token: terminal,
    body: { name: 'Sam Supervisor', badge_code: 'SUP-R', pin: '2468' },
  });
  expect(first.status, first.text).toBe(201);
  ({ token: supervisor } = first.json as { token: string });
  supervisorId = (first.json as { operator: { id: number } }).operator.id;
}, 60_000);
afterAll(async () => s?.close());

async function heldPackage(text = 'weighed 0.21 kg, expected 1.80 kg', at = new Date().toISOString()) {
  const ret = await createReturn(s.origin, s.account1);
  const pkg = await createPackage(s.origin, s.account1, 1, ret.id, { status: 'delivered' });
  const items = `${A1}/return_packages/${pkg.id}/line_items`;
  const item = await call(s.origin, 'POST', items, { token: s.account1, body: { condition: 'new' } });
  expect(item.status, item.text).toBe(201);
  await s.station.store.write((t) => holdForReview(t, pkg.id, { check: 'weight', text, at }));
  return { pkg, path: `${A1}/return_packages/${pkg.id}`, items };
}

const list = async (query = '') => ((await call(s.origin, 'GET', `/api/v1/station/reviews${query}`, { token: terminal })).json as ReviewList).data;
const unitsOf = async (path: string) => ((await call(s.origin, 'GET', path, { token: s.account1 })).json as { line_items: PackageLineItem[] }).line_items;

describe('the review list', () => {
  it('shows each held package with why and since when, the longest waiting first, to any station token', async () => {
    const older = await heldPackage('weighed 0.10 kg, expected 2.00 kg', '2026-11-28T08:00:00.000Z');
    const newer = await heldPackage('weighed 0.21 kg, expected 1.80 kg', '2026-11-28T09:00:00.000Z');
    const held = await list();
    const ours = held.filter((p) => p.package_id === older.pkg.id || p.package_id === newer.pkg.id);
    expect(ours.map((p) => p.package_id)).toEqual([older.pkg.id, newer.pkg.id]);
    expect(ours[0]).toMatchObject({
      account_id: 1,
      tracking_number: older.pkg.tracking_number,
      status: 'delivered',
      units: 1,
      review: { state: 'held', held_at: '2026-11-28T08:00:00.000Z', findings: [{ check: 'weight', text: 'weighed 0.10 kg, expected 2.00 kg' }] },
    });
    // An account token is no station token.
    expectError(await call(s.origin, 'GET', '/api/v1/station/reviews', { token: s.account1 }), 'ACCOUNT_FORBIDDEN');
  });

  it('bounds its query: an unknown state or a limit out of range is a 400 naming it', async () => {
    for (const query of ['?state=pending', '?limit=0', '?limit=201', '?limit=abc', '?other=1']) {
      expectError(await call(s.origin, 'GET', `/api/v1/station/reviews${query}`, { token: terminal }), 'INVALID_QUERY');
    }
    expect((await list('?limit=1')).length).toBe(1);
  });

  it("answers a package's review, null when it was never held", async () => {
    const ret = await createReturn(s.origin, s.account1);
    const pkg = await createPackage(s.origin, s.account1, 1, ret.id);
    const never = (await call(s.origin, 'GET', `${A1}/return_packages/${pkg.id}/review`, { token: s.account1 })).json as PackageReviewAnswer;
    expect(never).toMatchObject({ package_id: pkg.id, review: null, units: 0 });
    expectError(await call(s.origin, 'GET', `${A1}/return_packages/99999999/review`, { token: s.account1 }), 'NOT_FOUND');
    expectError(await call(s.origin, 'GET', `/api/v1/accounts/2/return_packages/${pkg.id}/review`, { token: s.account2 }), 'NOT_FOUND');
  });
});

describe('deciding', () => {
  it('releases: the units go back to the rules, who and when are recorded, and it leaves the held list', async () => {
    const { pkg, path } = await heldPackage();
    expect((await unitsOf(path))[0]?.disposition).toBe('quarantine');
    const res = await call(s.origin, 'POST', `${path}/review/release`, { token: supervisor, body: {} });
    expect(res.status, res.text).toBe(200);
    const decided = res.json as ReviewedPackage;
    expect(decided.review).toMatchObject({ state: 'released', decided_by: supervisorId, decided_by_name: 'Sam Supervisor', reason: null });
    expect(Date.now() - Date.parse(decided.review.decided_at ?? '')).toBeLessThan(60_000);
    expect((await unitsOf(path)).map((u) => [u.disposition, u.bin, u.disposition_source])).toEqual([['restock', 'RESTOCK', 'rule']]);
    expect((await list()).some((p) => p.package_id === pkg.id)).toBe(false);
    expect((await list('?state=released'))[0]?.package_id).toBe(pkg.id);
    // Its notes are untouched.
    expect(((await call(s.origin, 'PATCH', path, { token: s.account1, body: { status: 'received' } })).json as { notes: string | null }).notes).toBeNull();
  });

  it('confirms with a reason: the units stay in quarantine, the finding and the reason end the notes', async () => {
    const { pkg, path } = await heldPackage();
    await call(s.origin, 'PATCH', path, { token: s.account1, body: { notes: 'Box dented.' } });
    const res = await call(s.origin, 'POST', `${path}/review/confirm`, { token: supervisor, body: { reason: 'empty box' } });
    expect(res.status, res.text).toBe(200);
    expect((res.json as ReviewedPackage).review).toMatchObject({ state: 'confirmed', reason: 'empty box', decided_by: supervisorId });
    const units = await unitsOf(path);
    expect(units.map((u) => [u.disposition, u.disposition_override?.reason, u.disposition_override?.by])).toEqual([
      ['quarantine', 'review confirmed: empty box', supervisorId],
    ]);
    const notes = ((await call(s.origin, 'PATCH', path, { token: s.account1, body: { status: 'received' } })).json as { notes: string | null }).notes;
    expect(notes).toBe('Box dented.\nweighed 0.21 kg, expected 1.80 kg: empty box confirmed');
    expect((await list('?state=confirmed')).map((p) => p.package_id)).toContain(pkg.id);
  });

  it('refuses a decision without a supervisor, a confirmation without a reason, and a package not held — each plainly, changing nothing', async () => {
    const { path } = await heldPackage();
    expectError(await call(s.origin, 'POST', `${path}/review/release`, { token: terminal, body: {} }), 'SUPERVISOR_REQUIRED');
    expectError(await call(s.origin, 'POST', `${path}/review/release`, { token: s.account1, body: {} }), 'ACCOUNT_FORBIDDEN');
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(501) }, { reason: 'ok', extra: 1 }]) {
      expectError(await call(s.origin, 'POST', `${path}/review/confirm`, { token: supervisor, body }), 'VALIDATION_FAILED');
    }
    expectError(await call(s.origin, 'POST', `${path}/review/release`, { token: supervisor, body: { note: 'y'.repeat(501) } }), 'VALIDATION_FAILED');
    const still = (await call(s.origin, 'GET', `${path}/review`, { token: s.account1 })).json as PackageReviewAnswer;
    expect(still.review?.state).toBe('held');

    expect((await call(s.origin, 'POST', `${path}/review/release`, { token: supervisor, body: { note: 'weighed again: fine' } })).status).toBe(200);
    const again = expectError(await call(s.origin, 'POST', `${path}/review/confirm`, { token: supervisor, body: { reason: 'empty box' } }), 'REVIEW_NOT_HELD');
    expect(again.message).toMatch(/is not held for review: it was released by Sam Supervisor at \d{4}-/);
    const ret = await createReturn(s.origin, s.account1);
    const never = await createPackage(s.origin, s.account1, 1, ret.id);
    const details = expectError(
      await call(s.origin, 'POST', `${A1}/return_packages/${never.id}/review/release`, { token: supervisor, body: {} }),
      'REVIEW_NOT_HELD',
    );
    expect(details.message).toMatch(/is not held for review: nothing to decide/);
    expectError(await call(s.origin, 'POST', `${A1}/return_packages/99999999/review/release`, { token: supervisor, body: {} }), 'NOT_FOUND');
    expect(((await call(s.origin, 'GET', `${path}/review`, { token: s.account1 })).json as PackageReviewAnswer).review).toMatchObject({
      state: 'released',
      reason: 'weighed again: fine',
    });
  });
});
