import type { OperatorCreate, OperatorUpdate } from '#shared/api/station.ts';
import { fail } from '../errors.ts';
import type { BoundTables, Frozen, Operator } from '../store/index.ts';
import { logChange } from './change-log.ts';
import { advance } from './clock.ts';
import { type DomainContext, runScript } from './context.ts';
import { invalidReference } from './references.ts';

async function assertBadgeFree(t: BoundTables, badge: string | null, exceptId?: number): Promise<void> {
  if (badge === null) return;
  const holder = await t.operators.where('badge_code').equals(badge).first();
  if (holder && holder.id !== exceptId) throw invalidReference('badge_code', `Badge ${badge} already belongs to operator ${holder.id}.`);
}

export async function listOperators(ctx: DomainContext): Promise<ReadonlyArray<Frozen<Operator>>> {
  return ctx.store.operators.all();
}

export async function createOperator(ctx: DomainContext, input: OperatorCreate): Promise<Operator> {
  return runScript(ctx, async (t, now) => {
    await assertBadgeFree(t, input.badge_code);
    const draft: Omit<Operator, 'id'> = { name: input.name, badge_code: input.badge_code, active: input.active, created_at: now, updated_at: now };
    const id = await t.operators.add(draft as Operator);
    const operator = { ...draft, id };
    await logChange(t, { account_id: null, resource: 'operator', resource_id: id, action: 'created', data: operator, at: now });
    return operator;
  });
}

export async function updateOperator(ctx: DomainContext, id: number, patch: OperatorUpdate): Promise<Operator> {
  return runScript(ctx, async (t, now) => {
    const operator = await t.operators.get(id);
    if (!operator) throw fail('NOT_FOUND', `No operator ${id}.`);
    if (patch.badge_code !== undefined) await assertBadgeFree(t, patch.badge_code, id);
    const next: Operator = { ...operator, ...patch };
    if (JSON.stringify(next) === JSON.stringify(operator)) return operator;
    next.updated_at = advance(operator.updated_at, now);
    await t.operators.put(next);
    await logChange(t, { account_id: null, resource: 'operator', resource_id: id, action: 'updated', data: next, at: now });
    return next;
  });
}
