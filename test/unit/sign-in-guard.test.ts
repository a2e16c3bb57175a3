import { expect, it } from 'vitest';
import { SIGN_IN_ATTEMPTS, SIGN_IN_LOCK_MINUTES } from '#shared/api/supervisor.ts';
import type { Clock } from '../../electron/station/domain/clock.ts';
import { SignInGuard } from '../../electron/station/domain/supervisor-sessions.ts';
import { ContractError } from '../../electron/station/errors.ts';

/*
 * The wrong-PIN memory's bound, which the API suite cannot reach in reasonable time (every try
 * there costs a scrypt hash and the station's memory holds 10,000 badges): with room for 3 badges,
 * a flood of unknown badges forgets only badges that are neither locked nor being checked.
 * test/api/supervisor.test.ts runs the lock itself over HTTP.
 */

let now = Date.parse('2026-01-05T08:00:00.000Z');
const clock: Clock = { now: () => new Date(now).toISOString() };

function codeOf(work: () => void): string {
  try {
    work();
  } catch (error) {
    if (error instanceof ContractError) return error.body.error_code;
    throw error;
  }
  return 'admitted';
}

function wrongTry(guard: SignInGuard, badge: string): string {
  const admitted = codeOf(() => guard.admit(badge));
  return admitted === 'admitted' ? codeOf(() => guard.wrong(badge)) : admitted;
}

it('never forgets a locked badge to make room, and refuses a new badge rather than forget one', () => {
  const guard = new SignInGuard(clock, 3);
  for (let i = 1; i < SIGN_IN_ATTEMPTS; i++) expect(wrongTry(guard, 'SUP-1')).toBe('SIGN_IN_REFUSED');
  expect(wrongTry(guard, 'SUP-1')).toBe('SIGN_IN_LOCKED');

  // A flood of unknown badges: the oldest unlocked goes each time, never SUP-1.
  for (let i = 0; i < 50; i++) expect(wrongTry(guard, `NOBODY-${i}`)).toBe('SIGN_IN_REFUSED');
  expect(guard.size).toBe(3);
  expect(codeOf(() => guard.admit('SUP-1'))).toBe('SIGN_IN_LOCKED');

  // Every remembered badge locked or being checked: a new badge waits, nothing is forgotten.
  for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) wrongTry(guard, 'SUP-2');
  guard.admit('SUP-3');
  expect(codeOf(() => guard.admit('NEW'))).toBe('SIGN_IN_LOCKED');
  expect(codeOf(() => guard.admit('SUP-2'))).toBe('SIGN_IN_LOCKED');

  // The lock ends on time; then SUP-1 counts from zero again.
  now += SIGN_IN_LOCK_MINUTES * 60_000;
  guard.admit('SUP-1');
  guard.right('SUP-1');
  expect(wrongTry(guard, 'SUP-1')).toBe('SIGN_IN_REFUSED');
});

it('counts tries being checked: the one that could pass the limit waits; a right PIN among them starts the count again', () => {
  const guard = new SignInGuard(clock, 100);
  for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) guard.admit('SUP-9');
  expect(codeOf(() => guard.admit('SUP-9'))).toBe('SIGN_IN_LOCKED');
  for (let i = 1; i < SIGN_IN_ATTEMPTS; i++) expect(codeOf(() => guard.wrong('SUP-9'))).toBe('SIGN_IN_REFUSED');
  expect(codeOf(() => guard.wrong('SUP-9'))).toBe('SIGN_IN_LOCKED');
  expect(codeOf(() => guard.admit('SUP-9'))).toBe('SIGN_IN_LOCKED');

  for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) guard.admit('SUP-8');
  for (let i = 1; i < SIGN_IN_ATTEMPTS; i++) codeOf(() => guard.wrong('SUP-8'));
  guard.right('SUP-8');
  for (let i = 1; i < SIGN_IN_ATTEMPTS; i++) expect(wrongTry(guard, 'SUP-8')).toBe('SIGN_IN_REFUSED');
});
