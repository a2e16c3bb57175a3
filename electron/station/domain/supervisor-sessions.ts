import type { FirstSupervisor, SupervisorSession, SupervisorSignIn } from '#shared/api/supervisor.ts';
import { SIGN_IN_ATTEMPTS, SIGN_IN_LOCK_MINUTES, SUPERVISOR_SESSION_MINUTES } from '#shared/api/supervisor.ts';
import { normaliseCode } from '#shared/barcode.ts';
import { pinMatchesOrDecoy } from '../auth/pin-hash.ts';
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

interface Tries {
  /** Wrong PINs in a row, settled. */
  wrong: number;
  /** Tries admitted whose PIN is still being checked: they count before their answer. */
  inFlight: number;
  /** Until when the badge is refused (ms); only a lock's end lowers it. */
  lockedUntil: number;
}

/**
 * Wrong PINs per badge, in memory: SIGN_IN_ATTEMPTS wrong in a row lock the badge for
 * SIGN_IN_LOCK_MINUTES, right PIN or not. A try counts from its admission, before its slow check,
 * so tries sent at once cannot pass the limit; a late answer never lifts a lock; when the memory is
 * full, only the least recently tried badges that are neither locked nor being checked are
 * forgotten (none locked is ever dropped). A restart of the station forgets them (it needs the
 * machine, which a guesser at the dock does not have).
 */
export class SignInGuard {
  /** In order of last try (least recent first). */
  readonly #tries = new Map<string, Tries>();
  readonly #clock: Clock;
  readonly #maxBadges: number;
  constructor(clock: Clock, maxBadges = MAX_TRACKED_BADGES) {
    this.#clock = clock;
    this.#maxBadges = maxBadges;
  }

  #now(): number {
    return Date.parse(this.#clock.now());
  }

  /** The number of badges remembered (for tests of the bound). */
  get size(): number {
    return this.#tries.size;
  }

  /**
   * Admits a try of `badge` (counted at once) or refuses it: 429 while the badge is locked, or while
   * the tries being checked could reach the limit. Each admitted try ends with `right` or `wrong`.
   */
  admit(badge: string): void {
    const now = this.#now();
    let entry = this.#tries.get(badge);
    if (entry && entry.lockedUntil > now) throw locked(Math.ceil((entry.lockedUntil - now) / 1000));
    if (entry && entry.lockedUntil > 0) entry = { wrong: 0, inFlight: entry.inFlight, lockedUntil: 0 }; // the lock ended
    if (entry && entry.wrong + entry.inFlight >= SIGN_IN_ATTEMPTS) throw busy();
    if (!entry) {
      this.#makeRoom(now);
      entry = { wrong: 0, inFlight: 0, lockedUntil: 0 };
    }
    entry.inFlight += 1;
    // Moved to the end: the map stays in order of last try.
    this.#tries.delete(badge);
    this.#tries.set(badge, entry);
  }

  /** Settles an admitted try whose PIN was wrong; the one that reaches the limit locks the badge and says so. */
  wrong(badge: string): never {
    const now = this.#now();
    const entry = this.#settle(badge);
    if (entry.lockedUntil > now) throw locked(Math.ceil((entry.lockedUntil - now) / 1000));
    entry.wrong += 1;
    if (entry.wrong >= SIGN_IN_ATTEMPTS) {
      entry.lockedUntil = now + LOCK_MS;
      throw locked(LOCK_MS / 1000);
    }
    const left = SIGN_IN_ATTEMPTS - entry.wrong;
    throw fail(
      'SIGN_IN_REFUSED',
      `That badge and PIN do not sign in a supervisor (${left} ${left === 1 ? 'try' : 'tries'} left before the badge locks for ${SIGN_IN_LOCK_MINUTES} minutes).`,
    );
  }

  /** Settles an admitted try whose PIN was right: the count starts again, unless a lock came while it was checked. */
  right(badge: string): void {
    const now = this.#now();
    const entry = this.#settle(badge);
    if (entry.lockedUntil > now) throw locked(Math.ceil((entry.lockedUntil - now) / 1000));
    entry.wrong = 0;
    if (entry.inFlight === 0) this.#tries.delete(badge);
  }

  /** Settles an admitted try that could not be checked (the store failed): neither right nor wrong. */
  abandon(badge: string): void {
    this.#settle(badge);
  }

  #settle(badge: string): Tries {
    const entry = this.#tries.get(badge);
    if (!entry || entry.inFlight === 0) throw new Error(`A sign-in of ${badge} was settled without being admitted.`);
    entry.inFlight -= 1;
    return entry;
  }

  /** Room for one more badge: the least recently tried that is neither locked nor being checked goes. */
  #makeRoom(now: number): void {
    if (this.#tries.size < this.#maxBadges) return;
    for (const [badge, entry] of this.#tries) {
      if (entry.inFlight === 0 && entry.lockedUntil <= now) {
        this.#tries.delete(badge);
        return;
      }
    }
    // Every remembered badge is locked or being checked: no try of a new badge until one frees.
    throw busy();
  }
}

function locked(seconds: number) {
  const error = fail('SIGN_IN_LOCKED', `Too many wrong PINs: this badge is locked for ${Math.ceil(seconds / 60)} more minute${seconds > 60 ? 's' : ''}.`, {
    retry_after_seconds: seconds,
  });
  error.headers['retry-after'] = String(seconds);
  return error;
}

/** Tries under way that could lock the badge: the next waits for their answers. */
function busy() {
  const error = fail('SIGN_IN_LOCKED', 'Earlier tries of this badge are still being checked: try again in a moment.', { retry_after_seconds: 1 });
  error.headers['retry-after'] = '1';
  return error;
}

/**
 * Checks a badge and PIN (outside any write: the hash is slow): the supervisor they name, or a 403
 * that does not say which of the two was wrong — in its words or its time (a badge that is no
 * supervisor's is checked against a decoy hash, as slow as a real one).
 */
/** The active supervisor whose badge reads as `code` (normalised as a scanner reads it), if any. */
async function supervisorOfBadge(ctx: DomainContext, code: string): Promise<Frozen<Operator> | undefined> {
  const badge = normaliseCode(code);
  return (await ctx.store.operators.all()).find((o) => isActiveSupervisor(o) && o.badge_code !== null && normaliseCode(o.badge_code) === badge);
}

/** Whether a scanned code is an active supervisor's badge with a PIN to sign in with. */
export async function needsPin(ctx: DomainContext, code: string): Promise<boolean> {
  return ((await supervisorOfBadge(ctx, code))?.pin_hash ?? null) !== null;
}

export async function verifySupervisor(ctx: DomainContext, guard: SignInGuard, input: SupervisorSignIn): Promise<Frozen<Operator>> {
  const badge = normaliseCode(input.badge_code);
  guard.admit(badge);
  let supervisor: Frozen<Operator> | undefined;
  let matches: boolean;
  try {
    supervisor = await supervisorOfBadge(ctx, badge);
    matches = await pinMatchesOrDecoy(input.pin, supervisor?.pin_hash ?? null);
  } catch (error) {
    guard.abandon(badge);
    throw error;
  }
  if (!supervisor || !matches) return guard.wrong(badge);
  guard.right(badge);
  return supervisor;
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
