import type { FirstSupervisor, SupervisorSession, SupervisorSignIn } from '#shared/api/supervisor.ts';
import { SIGN_IN_ATTEMPTS, SIGN_IN_LOCK_MINUTES, SUPERVISOR_SESSION_MINUTES } from '#shared/api/supervisor.ts';
import { normaliseCode } from '#shared/barcode.ts';
import { pinMatches } from '../auth/pin-hash.ts';
import { fail } from '../errors.ts';
import type { BoundTables, Frozen, Operator } from '../store/index.ts';
import type { Clock } from './clock.ts';
import type { DomainContext } from './context.ts';
import { addOperator, hasActiveSupervisor, isActiveSupervisor, operatorView } from './operators.ts';
import { addToken } from './tokens.ts';

/*
 * A supervisor's badge and PIN open a short session: a station token of role `supervisor` that
 * expires SUPERVISOR_SESSION_MINUTES after sign-in (docs/decisions/supervisor.md).
 */

const LOCK_MS = SIGN_IN_LOCK_MINUTES * 60_000;
/** Bounds the memory of wrong tries (badges that do not exist count too). */
const MAX_TRACKED_BADGES = 10_000;

/**
 * Wrong PINs per badge, in memory: SIGN_IN_ATTEMPTS wrong in a row lock the badge for
 * SIGN_IN_LOCK_MINUTES, right PIN or not. A restart of the station forgets them (it needs the
 * machine, which a guesser at the dock does not have).
 */
export class SignInGuard {
  readonly #tries = new Map<string, { wrong: number; lockedUntil: number }>();
  readonly #clock: Clock;
  constructor(clock: Clock) {
    this.#clock = clock;
  }

  #now(): number {
    return Date.parse(this.#clock.now());
  }

  /** Refuses a locked badge (429 with the seconds left). */
  assertOpen(badge: string): void {
    const entry = this.#tries.get(badge);
    if (!entry || entry.lockedUntil <= this.#now()) return;
    throw locked(Math.ceil((entry.lockedUntil - this.#now()) / 1000));
  }

  /** Counts a wrong try; the one that reaches the limit locks the badge and says so. */
  wrong(badge: string): never {
    if (this.#tries.size >= MAX_TRACKED_BADGES) this.#tries.clear();
    const entry = this.#tries.get(badge);
    const wrong = (entry && entry.lockedUntil <= this.#now() && entry.lockedUntil > 0 ? 0 : (entry?.wrong ?? 0)) + 1;
    if (wrong >= SIGN_IN_ATTEMPTS) {
      this.#tries.set(badge, { wrong: 0, lockedUntil: this.#now() + LOCK_MS });
      throw locked(LOCK_MS / 1000);
    }
    this.#tries.set(badge, { wrong, lockedUntil: 0 });
    const left = SIGN_IN_ATTEMPTS - wrong;
    throw fail('SIGN_IN_REFUSED', `That badge and PIN do not sign in a supervisor (${left} ${left === 1 ? 'try' : 'tries'} left before the badge locks for ${SIGN_IN_LOCK_MINUTES} minutes).`);
  }

  right(badge: string): void {
    this.#tries.delete(badge);
  }
}

function locked(seconds: number) {
  const error = fail('SIGN_IN_LOCKED', `Too many wrong PINs: this badge is locked for ${Math.ceil(seconds / 60)} more minute${seconds > 60 ? 's' : ''}.`, { retry_after_seconds: seconds });
  error.headers['retry-after'] = String(seconds);
  return error;
}

/**
 * Checks a badge and PIN (outside any write: the hash is slow): the supervisor they name, or a 403
 * that does not say which of the two was wrong.
 */
export async function verifySupervisor(ctx: DomainContext, guard: SignInGuard, input: SupervisorSignIn): Promise<Frozen<Operator>> {
  const badge = normaliseCode(input.badge_code);
  guard.assertOpen(badge);
  const operator = (await ctx.store.operators.all()).find((o) => o.badge_code !== null && normaliseCode(o.badge_code) === badge);
  if (!operator || !isActiveSupervisor(operator) || !(await pinMatches(input.pin, operator.pin_hash ?? ''))) return guard.wrong(badge);
  guard.right(badge);
  return operator;
}

/** A new session of `operator`, its token added inside the caller's write. */
export async function openSession(t: BoundTables, now: string, operator: Frozen<Operator>): Promise<SupervisorSession> {
  const expiresAt = new Date(Date.parse(now) + SUPERVISOR_SESSION_MINUTES * 60_000).toISOString();
  const { secret } = await addToken(t, now, {
    scope: 'station',
    accountId: null,
    role: 'supervisor',
    operatorId: operator.id,
    name: `supervisor session of ${operator.name}`,
    expiresAt,
  });
  return { token: secret, expires_at: expiresAt, operator: operatorView(operator) };
}

/** The station's first supervisor, only while it has no active one (409 after). */
export async function addFirstSupervisor(t: BoundTables, now: string, input: FirstSupervisor, pinHash: string): Promise<Operator> {
  if (await hasActiveSupervisor(t)) throw fail('SUPERVISOR_EXISTS');
  return addOperator(t, now, { ...input, active: true, role: 'supervisor' }, pinHash);
}
