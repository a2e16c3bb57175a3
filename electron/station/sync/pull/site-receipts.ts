import { randomBytes } from 'node:crypto';
import { type SiteReceipt, SiteReceiptSchema } from '#shared/api/return-packages.ts';
import { MEDIA_TYPES } from '#shared/api/media.ts';
import { logChange } from '../../domain/change-log.ts';
import { advance } from '../../domain/clock.ts';
import { lineItemsOf } from '../../domain/line-items.ts';
import { mediaFilesOf } from '../../domain/media-files.ts';
import { recountReturn } from '../../domain/receipts.ts';
import { type BoundTables, type MediaFile, type PackageLineItem, type ReturnPackage, type UpstreamLink } from '../../store/index.ts';
import { accountState } from '../account-state.ts';
import { applyUpstreamPackage, isStored } from '../links/apply-upstream.ts';
import type { RoundReport, SyncContext } from '../sync-context.ts';
import { answerKind } from '../upstream/answers.ts';
import { hasNoSuchRoute, markSpecOnly } from '../upstream/hub-interface.ts';
import { itemBody } from '../links/line-item-fields.ts';
import { linkOf, linkOfUpstream, putLink } from '../links/upstream-links.ts';
import type { ListKind } from '../lists/list-scan.ts';
import { sameValue } from '../links/package-fields.ts';
import { readUpstreamPackage, type UpstreamPackage } from '../upstream/upstream-records.ts';

/*
 * The whole receipt from a site's hub (docs/decisions/site-receipt.md). The hub's list says which
 * packages changed; for each, the station reads the hub's `site_receipt` (G with the dock's notes and
 * each photo's hash) and applies it in one store write: the dock's fields by the ownership rules, the
 * units as the hub holds them, and the photos as records whose bytes stay at the hub. Only for a
 * station whose upstream settings carry `site`.
 */

/** Receipts read a round at most (each one request); the rest stay due for the next round. */
const RECEIPTS_PER_ROUND = 50;
/** The due list never grows past this: a station far behind reads the oldest first and the list's refresh brings the rest again. */
const MAX_DUE = 5_000;

/** The packages list for a site's station: `packages` as for any upstream, and each package whose receipt is older than its hub version is due. */
export function withReceiptsDue(packages: ListKind<UpstreamPackage>): ListKind<UpstreamPackage> {
  return {
    ...packages,
    async store(t, accountId, records, now) {
      const issues = await packages.store(t, accountId, records, now);
      const due: number[] = [];
      for (const u of records) {
        const link = await linkOfUpstream(t, accountId, 'return_package', u.id);
        if (link && (u.updated_at === undefined || u.updated_at === null || link.site_receipt_at !== u.updated_at)) due.push(u.id);
      }
      if (due.length > 0) {
        const state = await accountState(t, accountId);
        const merged = [...new Set([...(state.site_receipts_due ?? []), ...due])].slice(-MAX_DUE);
        await t.sync_state.put({ ...state, site_receipts_due: merged });
      }
      return issues;
    },
  };
}

/** Reads and applies the receipts due (at most RECEIPTS_PER_ROUND); true when none is left. */
export async function pullSiteReceipts(sc: SyncContext, accountId: number, report: RoundReport): Promise<boolean> {
  const due = (await accountState(sc.store.tables, accountId)).site_receipts_due ?? [];
  for (const upstreamId of due.slice(0, RECEIPTS_PER_ROUND)) {
    const answer = await sc.client.send({ method: 'GET', url: `${sc.client.packagesUrl(accountId, upstreamId)}/site_receipt`, priority: 'pull' });
    if (!answer) return false; // the budget says wait
    if (answerKind(answer.status) === 'ok') {
      const parsed = SiteReceiptSchema.safeParse(answer.body);
      if (parsed.success) {
        const applied = await sc.store.write((t) => applySiteReceipt(t, accountId, parsed.data, sc.clock.now()));
        if (applied === 'later') continue; // a line item's create is still being settled: read again next round
        report.pulled += 1;
      } else
        report.pull_failed.push(
          `account ${accountId}: the hub's receipt of package ${upstreamId} cannot be read (${parsed.error.issues[0]?.message ?? 'unknown shape'})`,
        );
    } else if (answer.status >= 500)
      return false; // the gate backs off; the receipt stays due
    else if (hasNoSuchRoute(answer) && sc.hub) {
      // A hub of an older version: no receipts from it (the lists carry what the spec carries); due ones are read once it has them.
      markSpecOnly(sc.hub, 'it has no site_receipt route');
      return true;
    }
    await sc.store.write(async (t) => {
      const state = await accountState(t, accountId);
      await t.sync_state.put({ ...state, site_receipts_due: (state.site_receipts_due ?? []).filter((id) => id !== upstreamId) });
    });
  }
  return due.length <= RECEIPTS_PER_ROUND;
}

/**
 * One receipt into the station, in the caller's write. 'later' when the package has a line item whose
 * create's answer was lost: the push adopts the hub's twin first (line-items-push.ts), else this would
 * copy it as a new unit.
 */
export async function applySiteReceipt(t: BoundTables, accountId: number, receipt: SiteReceipt, now: string): Promise<'applied' | 'later' | 'absent'> {
  const link = await linkOfUpstream(t, accountId, 'return_package', receipt.id);
  if (!link) return 'absent';
  if (Object.values(link.line_items ?? {}).some((state) => state.upstream_id === null)) return 'later';
  const read = readUpstreamPackage(receipt);
  if (!read.ok) return 'absent';
  const applied = await applyUpstreamPackage(t, accountId, read.record, now, { sameVersion: true });
  if (!isStored(applied)) return 'absent';
  const current = (await linkOf(t, 'return_package', applied.id)) ?? link;
  const returnLink = await linkOf(t, 'return', applied.return_id);
  const items = await applyUnits(t, applied, current, receipt, returnLink?.line_ids ?? {}, now);
  const media = await applyPhotos(t, applied, current, receipt);
  // What the hub holds now is what both sides know: nothing of it goes back up.
  const synced = { ...current.synced, processed_at: receipt.processed_at, processor_name: receipt.processor_name };
  const named = await takeProcessorName(t, applied, current.synced, receipt.processor_name, now);
  await putLink(t, { ...current, synced, line_items: items.map, media, site_receipt_at: receipt.updated_at }, now);
  if (items.changed || media !== current.media || named) await touched(t, (await t.return_packages.get(applied.id)) ?? applied, items.count, now);
  return 'applied';
}

/** The hub's processor name, unless the station changed its own since it last sent it (then its push goes up). */
async function takeProcessorName(t: BoundTables, pkg: ReturnPackage, synced: Record<string, unknown>, name: string | null, now: string): Promise<boolean> {
  const mine = pkg.processor_name ?? null;
  if (mine === name || !sameValue(mine, synced.processor_name)) return false;
  await t.return_packages.put({ ...pkg, processor_name: name, updated_at: advance(pkg.updated_at, now) });
  return true;
}

/** Each hub unit onto its local twin (made when new); a local change not yet sent is kept, and wins at the hub when it is (the last push wins, per unit). */
async function applyUnits(
  t: BoundTables,
  pkg: ReturnPackage,
  link: UpstreamLink,
  receipt: SiteReceipt,
  returnLineIds: Record<string, number>,
  now: string,
): Promise<{ map: NonNullable<UpstreamLink['line_items']>; changed: boolean; count: number }> {
  const map = { ...(link.line_items ?? {}) };
  const localByUpstream = new Map(
    Object.entries(map).flatMap(([local, state]) => (state.upstream_id === null ? [] : [[state.upstream_id, Number(local)] as const])),
  );
  const localLine = new Map(Object.entries(returnLineIds).map(([local, upstream]) => [upstream, Number(local)]));
  const items = new Map((await lineItemsOf(t, pkg.id)).map((item) => [item.id, item]));
  let changed = false;
  for (const unit of receipt.line_items) {
    const localId = localByUpstream.get(unit.id);
    const existing = localId === undefined ? undefined : items.get(localId);
    const fields = unitFields(unit, localLine);
    if (!existing) {
      const draft: Omit<PackageLineItem, 'id'> = {
        account_id: pkg.account_id,
        return_package_id: pkg.id,
        ...fields,
        labelled_at: null,
        created_at: now,
        updated_at: now,
      };
      const id = await t.package_line_items.add(draft as PackageLineItem);
      const item = { ...draft, id };
      items.set(id, item);
      map[String(id)] = { upstream_id: unit.id, synced: itemBody(item, returnLineIds, true), attempted_at: null };
      changed = true;
      continue;
    }
    const state = map[String(existing.id)];
    // Changed here and not sent yet: the station's stays, and its push replaces the hub's.
    if (!state || !sameValue(itemBody(existing, returnLineIds, true), state.synced)) continue;
    const next: PackageLineItem = { ...existing, ...fields, labelled_at: existing.labelled_at ?? null };
    if (sameValue(next, existing)) continue;
    next.updated_at = advance(existing.updated_at, now);
    await t.package_line_items.put(next);
    items.set(next.id, next);
    map[String(next.id)] = { upstream_id: unit.id, synced: itemBody(next, returnLineIds, true), attempted_at: null };
    changed = true;
  }
  // Removed at the hub (by another station): removed here, unless changed here since.
  const atHub = new Set(receipt.line_items.map((unit) => unit.id));
  for (const [local, state] of Object.entries(map)) {
    if (state.upstream_id === null || atHub.has(state.upstream_id)) continue;
    const item = items.get(Number(local));
    if (item && !sameValue(itemBody(item, returnLineIds, true), state.synced)) continue;
    if (item) {
      await t.package_line_items.delete(item.id);
      items.delete(item.id);
    }
    Reflect.deleteProperty(map, local);
    changed = true;
  }
  return { map, changed, count: items.size };
}

type HubUnit = SiteReceipt['line_items'][number];

/** A hub unit's fields as this station keeps them: its return line by the local id, operator ids left out (each station has its own operators). */
function unitFields(
  unit: HubUnit,
  localLine: Map<number, number>,
): Omit<PackageLineItem, 'id' | 'account_id' | 'return_package_id' | 'labelled_at' | 'created_at' | 'updated_at'> {
  return {
    return_line_item_id: unit.return_line_item_id === null ? null : (localLine.get(unit.return_line_item_id) ?? null),
    quantity: unit.quantity,
    merchant_sku: unit.merchant_sku,
    name: unit.name,
    condition: unit.condition,
    defective: unit.defective,
    notes: unit.notes,
    barcode: unit.barcode,
    tags: unit.tags,
    disposition: unit.disposition,
    bin: unit.bin,
    unit_id: unit.unit_id,
    disposition_source: unit.disposition_source,
    disposition_override: unit.disposition_override ? { by: null, reason: unit.disposition_override.reason, at: unit.disposition_override.at } : null,
    put_confirmed_at: unit.put_confirmed_at,
    put_by: null,
    condition_by: null,
    condition_at: unit.condition_at,
  };
}

/**
 * The hub's photos as records of this station whose bytes stay at the hub (`remote_url`), one per
 * content hash the station does not have for the package; a hash whose upload's answer was lost is
 * adopted by it (the hub has those bytes). Photos the hub no longer has go, unless they are this
 * station's own bytes.
 */
async function applyPhotos(t: BoundTables, pkg: ReturnPackage, link: UpstreamLink, receipt: SiteReceipt): Promise<UpstreamLink['media']> {
  const before = link.media ?? {};
  const map = { ...before };
  let changed = false;
  const local = await mediaFilesOf(t, pkg.id);
  const hashes = new Set(local.map((file) => file.sha256));
  for (const photo of receipt.media_files) {
    if (map[photo.sha256]?.upstream_id === photo.id) continue;
    map[photo.sha256] = { upstream_id: photo.id, attempted_at: null };
    changed = true;
    if (hashes.has(photo.sha256)) continue;
    const draft: Omit<MediaFile, 'id'> = {
      account_id: pkg.account_id,
      return_package_id: pkg.id,
      type: MEDIA_TYPES[photo.content_type].kind,
      content_type: photo.content_type,
      sha256: photo.sha256,
      size: photo.size,
      url_token: randomBytes(32).toString('base64url'),
      created_at: photo.created_at,
      captured_at: photo.captured_at,
      remote_url: photo.url,
    };
    await t.media_files.add(draft as MediaFile);
    hashes.add(photo.sha256);
  }
  const atHub = new Set(receipt.media_files.map((photo) => photo.sha256));
  for (const [sha256, state] of Object.entries(map)) {
    if (state.upstream_id === null || atHub.has(sha256)) continue;
    for (const file of local.filter((f) => f.sha256 === sha256 && f.remote_url !== undefined)) await t.media_files.delete(file.id);
    Reflect.deleteProperty(map, sha256);
    changed = true;
  }
  return changed ? map : before;
}

/** The package's views hear of its new units and photos (a change of sync's own: nothing goes back up); a received package's return is recounted. */
async function touched(t: BoundTables, pkg: ReturnPackage, count: number, now: string): Promise<void> {
  const next: ReturnPackage = { ...pkg, line_items_count: count, updated_at: advance(pkg.updated_at, now) };
  await t.return_packages.put(next);
  await logChange(t, { account_id: pkg.account_id, resource: 'return_package', resource_id: pkg.id, action: 'updated', data: next, at: now }, 'upstream');
  if (next.status === 'received') await recountReturn(t, next.return_id, now);
}
