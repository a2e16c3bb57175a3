import { randomUUID } from 'node:crypto';
import type { Operator as OperatorView, OperatorCreate, OperatorUpdate } from '#shared/api/station.ts';
import { normaliseCode } from '#shared/barcode.ts';
import { hashPin } from '../auth/pin-hash.ts';
import { fail } from '../errors.ts';
import { type BoundTables, type Frozen, type Operator, type StationStore } from '../store/index.ts';
import { logChange } from './change-log.ts';
import { advance } from './clock.ts';
import { type DomainContext, runScript } from './context.ts';
import { invalidReference } from './references.ts';
import { revokeTokensOf } from './tokens.ts';

/*
 * Dock workers and supervisors (docs/decisions/supervisor.md). A worker's `uid` is its stable id
 * wherever it is known; `id` is this station's number for it (the `processor_id` of what it
 * receives). PINs arrive here already hashed: hashing is slow and must not run inside a write.
 */

/** What the API shows of an operator: never the PIN's hash. */
export function operatorView(operator: Frozen<Operator>): OperatorView {
  return {
    id: operator.id,
    uid: operator.uid,
    name: operator.name,
    badge_code: operator.badge_code,
    active: operator.active,
    role: operator.role ?? 'worker',
    sign_in_key: operator.sign_in_key ?? null,
    has_pin: typeof operator.pin_hash === 'string',
    created_at: operator.created_at,
    updated_at: operator.updated_at,
  };
}

/** Whether the operator may open a supervisor session. */
export function isActiveSupervisor(operator: Frozen<Operator>): boolean {
  return operator.active && operator.role === 'supervisor' && typeof operator.pin_hash === 'string' && operator.badge_code !== null;
}

/** The PIN of a create or update body hashed (outside any write), or null when it has none. */
export async function pinHashOf(body: { pin?: string | undefined }): Promise<string | null> {
  return body.pin === undefined ? null : hashPin(body.pin);
}

/** Badges are compared as a scan reads them (normalised: `sup-1` is `SUP-1`), so every badge signs in one operator. */
async function assertBadgeFree(t: BoundTables, badge: string | null, exceptId?: number): Promise<void> {
  if (badge === null) return;
  const wanted = normaliseCode(badge);
  const holder = (await t.operators.all()).find((o) => o.id !== exceptId && o.badge_code !== null && normaliseCode(o.badge_code) === wanted);
  if (holder)
    throw invalidReference(
      'badge_code',
      `Badge ${badge} already belongs to operator ${holder.id} (${holder.name}${holder.badge_code === badge ? '' : `, badge ${holder.badge_code}`}).`,
    );
}

async function assertSignInKeyFree(t: BoundTables, key: number | null, active: boolean, exceptId?: number): Promise<void> {
  if (key === null || !active) return;
  const holder = (await t.operators.all()).find((o) => o.active && o.sign_in_key === key && o.id !== exceptId);
  if (holder) throw invalidReference('sign_in_key', `Key ${key} already signs in ${holder.name}.`);
}

export async function listOperators(ctx: DomainContext): Promise<OperatorView[]> {
  return (await ctx.store.operators.all()).map(operatorView);
}

/** Whether the station has an active supervisor (one who can sign in). */
export async function hasActiveSupervisor(t: BoundTables): Promise<boolean> {
  return (await t.operators.all()).some((o) => isActiveSupervisor(o));
}

/** Adds an operator inside the caller's write (`pinHash`: the body's PIN, hashed by `pinHashOf`). */
export async function addOperator(t: BoundTables, now: string, input: OperatorCreate, pinHash: string | null): Promise<Operator> {
  await assertBadgeFree(t, input.badge_code);
  await assertSignInKeyFree(t, input.sign_in_key, input.active);
  const draft: Omit<Operator, 'id'> = {
    uid: randomUUID(),
    name: input.name,
    badge_code: input.badge_code,
    active: input.active,
    role: input.role,
    sign_in_key: input.sign_in_key,
    pin_hash: pinHash,
    created_at: now,
    updated_at: now,
  };
  const id = await t.operators.add(draft as Operator);
  const operator = { ...draft, id };
  await logChange(t, { account_id: null, resource: 'operator', resource_id: id, action: 'created', data: operatorView(operator), at: now });
  return operator;
}

export async function createOperator(ctx: DomainContext, input: OperatorCreate, pinHash: string | null): Promise<OperatorView> {
  return runScript(ctx, async (t, now) => operatorView(await addOperator(t, now, input, pinHash)));
}

export function updateOperator(ctx: DomainContext, id: number, patch: OperatorUpdate, pinHash: string | null): Promise<OperatorView> {
  return runScript(ctx, (t, now) => changeOperator(t, now, id, patch, pinHash));
}

/** Changes an operator inside the caller's write (`pinHash`: the body's PIN, hashed by `pinHashOf`). */
export async function changeOperator(t: BoundTables, now: string, id: number, patch: OperatorUpdate, pinHash: string | null): Promise<OperatorView> {
  const operator = await t.operators.get(id);
  if (!operator) throw fail('NOT_FOUND', `No operator ${id}.`);
  const fields: Partial<OperatorUpdate> = { ...patch };
  delete fields.pin; // kept only as its hash
  const next: Operator = { ...operator, ...fields, ...(pinHash === null ? {} : { pin_hash: pinHash }) };
  if (patch.badge_code !== undefined) await assertBadgeFree(t, patch.badge_code, id);
  if (patch.sign_in_key !== undefined || patch.active === true) await assertSignInKeyFree(t, next.sign_in_key ?? null, next.active, id);
  if (next.role === 'supervisor') {
    if (next.badge_code === null) throw invalidReference('badge_code', 'A supervisor needs a badge.');
    if (typeof next.pin_hash !== 'string') throw invalidReference('pin', 'A supervisor needs a PIN.');
  }
  if (isActiveSupervisor(operator) && !isActiveSupervisor(next) && !(await t.operators.all()).some((o) => o.id !== id && isActiveSupervisor(o))) {
    const field = patch.active === false ? 'active' : 'role';
    throw invalidReference(field, `${operator.name} is the station's last supervisor: make another worker a supervisor first.`);
  }
  // A new PIN, a deactivation or the end of the role ends the sessions the old state gave, and the tokens they made.
  if (pinHash !== null || !isActiveSupervisor(next)) await revokeTokensOf(t, now, id);
  if (JSON.stringify(next) === JSON.stringify(operator)) return operatorView(operator);
  next.updated_at = advance(operator.updated_at, now);
  await t.operators.put(next);
  await logChange(t, { account_id: null, resource: 'operator', resource_id: id, action: 'updated', data: operatorView(next), at: now });
  return operatorView(next);
}

/** Gives operators stored before stable ids one (a handful of records, once, at open). */
export async function fillOperatorUids(store: StationStore): Promise<number> {
  const missing = (await store.operators.all()).filter((o) => typeof o.uid !== 'string').map((o) => o.id);
  if (missing.length === 0) return 0;
  return store.write(['operators'], async (t) => {
    for (const id of missing) await t.operators.update(id, { uid: randomUUID() });
    return missing.length;
  });
}
