import { lineItemsOf } from '../domain/line-items.ts';
import { boundTables, type PackageLineItem, type ReturnPackage, type BoundTables, type EngineTables, type UpstreamLink } from '../store/index.ts';
import { answerKind } from './errors.ts';
import { linkOf, putLink } from './links.ts';
import { sameValue } from './package-fields.ts';
import type { SyncContext } from './context.ts';
import { upstreamMessage, type UpstreamAnswer } from './upstream-client.ts';

/*
 * A package's inspected items go up after the package is linked (docs/decisions/sync.md): each local
 * item maps to an upstream one with a synced snapshot, like the package itself. A create is marked
 * before it is sent; after a lost answer the upstream package is read and an unmatched item with the
 * same content is adopted. An upstream that answers it has no line items keeps them on the station.
 */

type LineItemLinks = NonNullable<UpstreamLink['line_items']>;

/** The item as the upstream should have it: its return line by the upstream's id. */
function itemBody(item: PackageLineItem, returnLineIds: Record<string, number>): Record<string, unknown> {
  return {
    return_line_item_id: item.return_line_item_id === null ? null : (returnLineIds[String(item.return_line_item_id)] ?? null),
    quantity: item.quantity,
    merchant_sku: item.merchant_sku,
    name: item.name,
    condition: item.condition,
    defective: item.defective,
    notes: item.notes,
    barcode: item.barcode,
    tags: item.tags,
  };
}

async function returnLineIds(t: Pick<EngineTables, 'upstream_links'>, pkg: ReturnPackage): Promise<Record<string, number>> {
  return (await linkOf(t, 'return', pkg.return_id))?.line_ids ?? {};
}

/** Whether the package has item changes the upstream has not taken (false when it takes none). */
export async function lineItemsUnsent(t: BoundTables, pkg: ReturnPackage, link: UpstreamLink): Promise<boolean> {
  if (link.line_items_unsupported) return false;
  const map = link.line_items ?? {};
  const items = await lineItemsOf(t, pkg.id);
  const lineIds = await returnLineIds(t, pkg);
  if (Object.keys(map).some((id) => !items.some((item) => String(item.id) === id))) return true;
  return items.some((item) => {
    const state = map[String(item.id)];
    return !state?.upstream_id || !sameValue(itemBody(item, lineIds), state.synced);
  });
}

export type LineItemsOutcome = { ok: true } | { ok: false; answer: UpstreamAnswer };

/** Sends the package's item changes; stops at the first refusal (the caller parks or backs off the slot). */
export async function pushLineItems(sc: SyncContext, pkg: ReturnPackage, link: UpstreamLink): Promise<LineItemsOutcome> {
  if (link.line_items_unsupported) return { ok: true };
  const db = sc.store.db;
  const url = `${sc.client.packagesUrl(pkg.account_id, link.upstream_id)}/line_items`;
  const items = await lineItemsOf(db, pkg.id);
  const lineIds = await returnLineIds(db, pkg);
  const save = (update: (map: LineItemLinks) => void, extra: Partial<UpstreamLink> = {}) =>
    sc.store.write(async (tx) => {
      const t = boundTables(tx);
      const current = await linkOf(t, 'return_package', pkg.id);
      if (!current) return;
      const map = { ...(current.line_items ?? {}) };
      update(map);
      await putLink(t, { ...current, ...extra, line_items: map }, sc.clock.now());
    });
  const map = { ...(link.line_items ?? {}) };
  for (const item of items) {
    const key = String(item.id);
    const body = itemBody(item, lineIds);
    let state = map[key];
    if (state && !state.upstream_id && state.attempted_at) {
      const adopted = await adoptItem(sc, pkg, link, body, map);
      if (adopted !== null) {
        state = { upstream_id: adopted, synced: body, attempted_at: null };
        map[key] = state;
        await save((m) => void (m[key] = state as LineItemLinks[string]));
      }
    }
    if (!state?.upstream_id) {
      const attempted = { upstream_id: null, synced: {}, attempted_at: sc.clock.now() };
      await save((m) => void (m[key] = attempted));
      const answer = await sc.client.send({ method: 'POST', url, json: body, idempotencyKey: `returns-station-sync:${sc.instanceId}:package_line_item:${item.id}`, priority: 'push' });
      if (!answer) return { ok: true };
      if (answerKind(answer.status) !== 'ok') {
        if (await unsupported(sc, pkg, link, answer)) {
          await save(() => undefined, { line_items_unsupported: `The upstream has no line items (${answer.status}: ${upstreamMessage(answer).message}); they stay on the station.` });
          return { ok: true };
        }
        return { ok: false, answer };
      }
      const id = (answer.body as { id?: unknown } | null)?.id;
      if (typeof id !== 'number') return { ok: false, answer };
      map[key] = { upstream_id: id, synced: body, attempted_at: null };
      await save((m) => void (m[key] = { upstream_id: id, synced: body, attempted_at: null }));
      continue;
    }
    const changed = Object.fromEntries(Object.entries(body).filter(([field, value]) => !sameValue(value, state.synced[field])));
    if (Object.keys(changed).length === 0) continue;
    const answer = await sc.client.send({ method: 'PATCH', url: `${url}/${state.upstream_id}`, json: changed, priority: 'push' });
    if (!answer) return { ok: true };
    if (answerKind(answer.status) !== 'ok') return { ok: false, answer };
    const synced = { ...state.synced, ...changed };
    await save((m) => void (m[key] = { upstream_id: state.upstream_id, synced, attempted_at: null }));
  }
  for (const [key, state] of Object.entries(map)) {
    if (items.some((item) => String(item.id) === key)) continue;
    if (state.upstream_id) {
      const answer = await sc.client.send({ method: 'DELETE', url: `${url}/${state.upstream_id}`, priority: 'push' });
      if (!answer) return { ok: true };
      if (answerKind(answer.status) !== 'ok' && answer.status !== 404) return { ok: false, answer };
    }
    await save((m) => void Reflect.deleteProperty(m, key));
  }
  return { ok: true };
}

/** After a lost answer: an upstream item of the package with the same content that no local item claims. */
async function adoptItem(sc: SyncContext, pkg: ReturnPackage, link: UpstreamLink, body: Record<string, unknown>, map: LineItemLinks): Promise<number | null> {
  const answer = await sc.client.send({ method: 'GET', url: sc.client.packagesUrl(pkg.account_id, link.upstream_id), priority: 'push' });
  if (!answer || answerKind(answer.status) !== 'ok') return null;
  const upstreamItems = (answer.body as { line_items?: Array<Record<string, unknown>> } | null)?.line_items ?? [];
  const claimed = new Set(Object.values(map).map((s) => s.upstream_id));
  const match = upstreamItems.find((u) => typeof u.id === 'number' && !claimed.has(u.id) && ['return_line_item_id', 'quantity', 'merchant_sku', 'condition', 'barcode'].every((f) => sameValue(u[f], body[f])));
  return typeof match?.id === 'number' ? match.id : null;
}

/** 405/501, or a 404 while the package itself is there: the upstream has no line items. */
async function unsupported(sc: SyncContext, pkg: ReturnPackage, link: UpstreamLink, answer: UpstreamAnswer): Promise<boolean> {
  if (answer.status === 405 || answer.status === 501) return true;
  if (answer.status !== 404) return false;
  const check = await sc.client.send({ method: 'GET', url: sc.client.packagesUrl(pkg.account_id, link.upstream_id), priority: 'push' });
  return check !== null && answerKind(check.status) === 'ok';
}
