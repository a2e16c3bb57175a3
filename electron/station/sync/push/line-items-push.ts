import { lineItemsOf } from '../../domain/line-items.ts';
import { type ReturnPackage, type BoundTables, type ReadTables, type UpstreamLink } from '../../store/index.ts';
import { accountState } from '../account-state.ts';
import { answerKind, type UpstreamAnswer, upstreamMessage } from '../upstream/answers.ts';
import { linkOf } from '../links/upstream-links.ts';
import { recordedBeforeRelink } from '../links/relink.ts';
import { packageLinkMapSaver, subResourceUnsupported, type PackageLinkMapSaver } from './package-link-maps.ts';
import { itemBody } from '../links/line-item-fields.ts';
import { sameValue } from '../links/package-fields.ts';
import type { SyncContext } from '../sync-context.ts';
import { usesSiteInterface } from '../upstream/hub-interface.ts';

/*
 * A package's inspected items go up after the package is linked (docs/decisions/sync.md): each local
 * item maps to an upstream one with a synced snapshot, like the package itself. A create is marked
 * before it is sent; after a lost answer the upstream package is read and an unmatched item with the
 * same content is adopted. An upstream that answers it has no line items keeps them on the station.
 */

type LineItemLinks = NonNullable<UpstreamLink['line_items']>;

async function returnLineIds(t: Pick<ReadTables, 'upstream_links'>, pkg: ReturnPackage): Promise<Record<string, number>> {
  return (await linkOf(t, 'return', pkg.return_id))?.line_ids ?? {};
}

/** Whether the package has item changes the upstream has not taken (false when it takes none). */
export async function lineItemsUnsent(t: BoundTables, pkg: ReturnPackage, link: UpstreamLink, site: boolean): Promise<boolean> {
  if (link.line_items_unsupported) return false;
  const map = link.line_items ?? {};
  const items = await lineItemsOf(t, pkg.id);
  const lineIds = await returnLineIds(t, pkg);
  if (Object.keys(map).some((id) => !items.some((item) => String(item.id) === id))) return true;
  return items.some((item) => {
    const state = map[String(item.id)];
    // Field by field, as a PATCH sends them: a snapshot may hold fields this body leaves out (a hub of an older version: hub-interface.ts).
    return !state?.upstream_id || Object.entries(itemBody(item, lineIds, site)).some(([field, value]) => !sameValue(value, state.synced[field]));
  });
}

export type LineItemsOutcome = { ok: true } | { ok: false; answer: UpstreamAnswer };

/** Sends the package's item changes; stops at the first refusal (the caller parks or backs off the slot). */
export async function pushLineItems(sc: SyncContext, pkg: ReturnPackage, link: UpstreamLink): Promise<LineItemsOutcome> {
  if (link.line_items_unsupported) return { ok: true };
  const items = await lineItemsOf(sc.store.tables, pkg.id);
  const lineIds = await returnLineIds(sc.store.tables, pkg);
  const push: ItemPush = {
    sc,
    pkg,
    link,
    url: `${sc.client.packagesUrl(pkg.account_id, link.upstream_id)}/line_items`,
    map: { ...(link.line_items ?? {}) },
    save: packageLinkMapSaver(sc, pkg, 'line_items'),
  };
  const state = await accountState(sc.store.tables, pkg.account_id);
  for (const item of items) {
    // A unit recorded before the station's links were dropped may be upstream already: looked for first.
    if (!push.map[String(item.id)] && recordedBeforeRelink(state, item.created_at))
      push.map[String(item.id)] = { upstream_id: null, synced: {}, attempted_at: state.relinked_at ?? null };
    const outcome = await pushItem(push, item.id, itemBody(item, lineIds, usesSiteInterface(sc)));
    if (outcome !== 'next') return outcome;
  }
  return removeDroppedItems(push, new Set(items.map((item) => String(item.id))));
}

/** One package's item push: where it sends, the item links as this push has them, and how it saves one. */
interface ItemPush {
  sc: SyncContext;
  pkg: ReturnPackage;
  link: UpstreamLink;
  url: string;
  map: LineItemLinks;
  save: PackageLinkMapSaver<'line_items'>;
}

/** Sends one item: adopts it after a lost create, creates it, or patches what changed. 'next': go on. */
async function pushItem(push: ItemPush, itemId: number, body: Record<string, unknown>): Promise<LineItemsOutcome | 'next'> {
  const key = String(itemId);
  let state = push.map[key];
  if (state && !state.upstream_id && state.attempted_at) {
    const adopted = await adoptItem(push.sc, push.pkg, push.link, body, push.map);
    if (adopted !== null) {
      // Synced as the upstream has it: a value it lacks (a notes or tags change the old upstream never
      // sent on, found at a relink) still differs and goes up below. Fields it does not show count as sent.
      const synced = Object.fromEntries(Object.entries(body).map(([field, value]) => [field, field in adopted ? adopted[field] : value]));
      const adoptedState = { upstream_id: adopted.id, synced, attempted_at: null };
      state = push.map[key] = adoptedState;
      await push.save((m) => void (m[key] = adoptedState));
    }
  }
  if (!state?.upstream_id) return createItem(push, itemId, body);
  return patchItem(push, key, { upstream_id: state.upstream_id, synced: state.synced }, body);
}

/**
 * POSTs a new item, marked as attempted first so a lost answer is adopted rather than sent twice. A
 * replacement (`replaces`, kept until it is made) carries its own idempotency key: the first create's would
 * name the item deleted.
 */
async function createItem(push: ItemPush, itemId: number, body: Record<string, unknown>): Promise<LineItemsOutcome | 'next'> {
  const { sc, pkg, link, save } = push;
  const key = String(itemId);
  const replaces = push.map[key]?.replaces;
  const attempted = { upstream_id: null, synced: {}, attempted_at: sc.clock.now(), ...(replaces ? { replaces } : {}) };
  await save((m) => void (m[key] = attempted));
  const answer = await sc.client.send({
    method: 'POST',
    url: push.url,
    json: body,
    idempotencyKey: `returns-station-sync:${sc.instanceId}:package_line_item:${itemId}${replaces ? `:replaces:${replaces}` : ''}`,
    priority: 'push',
  });
  if (!answer) return { ok: true };
  if (answerKind(answer.status) !== 'ok') {
    if (await subResourceUnsupported(sc, pkg, link, answer)) {
      await save(() => undefined, {
        line_items_unsupported: `The upstream has no line items (${answer.status}: ${upstreamMessage(answer).message}); they stay on the station.`,
      });
      return { ok: true };
    }
    return { ok: false, answer };
  }
  const id = (answer.body as { id?: unknown } | null)?.id;
  if (typeof id !== 'number') return { ok: false, answer };
  push.map[key] = { upstream_id: id, synced: body, attempted_at: null };
  await save((m) => void (m[key] = { upstream_id: id, synced: body, attempted_at: null }));
  return 'next';
}

/** PATCHes the fields that differ from the item's synced snapshot. */
async function patchItem(
  push: ItemPush,
  key: string,
  state: { upstream_id: number; synced: Record<string, unknown> },
  body: Record<string, unknown>,
): Promise<LineItemsOutcome | 'next'> {
  const changed = Object.fromEntries(Object.entries(body).filter(([field, value]) => !sameValue(value, state.synced[field])));
  if (Object.keys(changed).length === 0) return 'next';
  const answer = await push.sc.client.send({ method: 'PATCH', url: `${push.url}/${state.upstream_id}`, json: changed, priority: 'push' });
  if (!answer) return { ok: true };
  if (answerKind(answer.status) !== 'ok') {
    if (answer.status === 404 || answer.status === 405 || answer.status === 501) return replaceItem(push, key, state, body);
    return { ok: false, answer };
  }
  const synced = { ...state.synced, ...changed };
  await push.save((m) => void (m[key] = { upstream_id: state.upstream_id, synced, attempted_at: null }));
  return 'next';
}

/**
 * The upstream did not take an item's PATCH (the spec shows no line item update, so 404/405/501 is
 * expected of a returns service): the package is read back. An item gone upstream is created again;
 * one still there is deleted and created with the new values (DELETE first, so a lost create is
 * adopted and never leaves two). An upstream that deletes no items keeps its first values: the change
 * stays on the station, said on the link (`line_item_changes_kept_local`), and the receipt goes on.
 */
async function replaceItem(
  push: ItemPush,
  key: string,
  state: { upstream_id: number; synced: Record<string, unknown> },
  body: Record<string, unknown>,
): Promise<LineItemsOutcome | 'next'> {
  const { sc, pkg, link } = push;
  const read = await sc.client.send({ method: 'GET', url: sc.client.packagesUrl(pkg.account_id, link.upstream_id), priority: 'push' });
  if (!read) return { ok: true };
  if (answerKind(read.status) !== 'ok') return { ok: false, answer: read };
  const upstreamItems = (read.body as { line_items?: Array<{ id?: unknown }> } | null)?.line_items ?? [];
  if (upstreamItems.some((u) => u.id === state.upstream_id)) {
    const removed = await sc.client.send({ method: 'DELETE', url: `${push.url}/${state.upstream_id}`, priority: 'push' });
    if (!removed) return { ok: true };
    if (answerKind(removed.status) !== 'ok') {
      if (removed.status !== 404 && removed.status !== 405 && removed.status !== 501) return { ok: false, answer: removed };
      const kept = { upstream_id: state.upstream_id, synced: body, attempted_at: null };
      push.map[key] = kept;
      await push.save((m) => void (m[key] = kept), {
        line_item_changes_kept_local: `The upstream neither updates nor deletes line items (PATCH and DELETE answered ${removed.status}); it keeps their first values and the changes stay on the station.`,
      });
      return 'next';
    }
  }
  const replacing = { upstream_id: null, synced: {}, attempted_at: null, replaces: state.upstream_id };
  push.map[key] = replacing;
  await push.save((m) => void (m[key] = replacing));
  return createItem(push, Number(key), body);
}

/** DELETEs upstream the items the station no longer has (a 404 counts as gone), then forgets their links. */
async function removeDroppedItems(push: ItemPush, kept: Set<string>): Promise<LineItemsOutcome> {
  for (const [key, state] of Object.entries(push.map)) {
    if (kept.has(key)) continue;
    if (state.upstream_id) {
      const answer = await push.sc.client.send({ method: 'DELETE', url: `${push.url}/${state.upstream_id}`, priority: 'push' });
      if (!answer) return { ok: true };
      if (answerKind(answer.status) !== 'ok' && answer.status !== 404) return { ok: false, answer };
    }
    await push.save((m) => void Reflect.deleteProperty(m, key));
  }
  return { ok: true };
}

/** After a lost answer (or a relink): an upstream item of the package with the same content that no local item claims, as the upstream has it. */
async function adoptItem(
  sc: SyncContext,
  pkg: ReturnPackage,
  link: UpstreamLink,
  body: Record<string, unknown>,
  map: LineItemLinks,
): Promise<(Record<string, unknown> & { id: number }) | null> {
  const answer = await sc.client.send({ method: 'GET', url: sc.client.packagesUrl(pkg.account_id, link.upstream_id), priority: 'push' });
  if (!answer || answerKind(answer.status) !== 'ok') return null;
  const upstreamItems = (answer.body as { line_items?: Array<Record<string, unknown>> } | null)?.line_items ?? [];
  const claimed = new Set(Object.values(map).map((s) => s.upstream_id));
  const match = upstreamItems.find(
    (u) =>
      typeof u.id === 'number' &&
      !claimed.has(u.id) &&
      ['return_line_item_id', 'quantity', 'merchant_sku', 'condition', 'barcode'].every((f) => sameValue(u[f], body[f])),
  );
  return match && typeof match.id === 'number' ? { ...match, id: match.id } : null;
}
