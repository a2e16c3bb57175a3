import { RETURN_PACKAGE_FIELDS } from '#shared/fields/return-package.ts';
import { RETURN_FIELDS, RETURN_LINE_ITEM_FIELDS } from '#shared/fields/return.ts';
import { blankValues, takeUpstream } from '#shared/fields/table.ts';
import { canMove } from '#shared/package-status.ts';
import { deriveReturnStatus } from '#shared/api/returns.ts';
import { logChange } from '../../domain/change-log.ts';
import { advance } from '../../domain/clock.ts';
import { rehomeLineItems } from '../../domain/line-items.ts';
import { recountReturn } from '../../domain/receipts.ts';
import { skuKey } from '../../domain/returns.ts';
import {
  allocateIds,
  type ReturnLineItem,
  type ReturnPackage,
  type ReturnRecord,
  type BoundTables,
  outboxKey,
  trackingKey,
  type UpstreamLink,
} from '../../store/index.ts';
import { linkOf, linkOfUpstream, logConflict, putLink } from './upstream-links.ts';
import { type FieldValues, localValues, sameValue, SYNCED_FIELDS, UPSTREAM_OWNED, upstreamValues as upstreamValuesFromAnswer } from './package-fields.ts';
import type { UpstreamPackage, UpstreamReturn } from '../upstream/upstream-records.ts';

/*
 * Applying what the upstream says to the station's records, inside one store write (idempotent:
 * applying the same answer twice changes nothing). Ownership: docs/decisions/sync.md.
 */

/** A new package's values before the upstream's: null for each that may be null. */
const NEW_PACKAGE_VALUES = blankValues(RETURN_PACKAGE_FIELDS);

/** A package could not be applied because the station does not know its return yet. */
export class MissingReturnError extends Error {
  readonly upstreamReturnId: number;
  constructor(upstreamReturnId: number) {
    super(`The upstream return ${upstreamReturnId} is not on the station yet.`);
    this.upstreamReturnId = upstreamReturnId;
  }
}

/**
 * The return's lines as the station keeps them: each upstream line under its local id (a new id for a
 * line not seen before), its unreceived count the upstream's when first seen and the station's own after.
 */
async function linesOfUpstream(
  t: BoundTables,
  u: UpstreamReturn,
  knownLineIds: Record<string, number>,
  existing: ReturnRecord | undefined,
): Promise<{ lines: ReturnLineItem[]; lineIds: Record<string, number> }> {
  const lineIds = { ...knownLineIds };
  const localByUpstream = new Map(Object.entries(lineIds).map(([local, up]) => [up, Number(local)]));
  const fresh = u.return_line_items.filter((line) => !localByUpstream.has(line.id));
  const newIds = fresh.length > 0 ? await allocateIds(t, 'return_line_items', fresh.length) : [];
  const lines: ReturnLineItem[] = u.return_line_items.map((line) => {
    let localId = localByUpstream.get(line.id);
    const before = localId === undefined ? undefined : existing?.return_line_items.find((l) => l.id === localId);
    if (localId === undefined) {
      localId = newIds.shift() ?? 0;
      lineIds[String(localId)] = line.id;
    }
    // The upstream's count when first seen (all of it when it gives none); later the station counts its own receipts against it.
    const unreceived = line.unreceived_quantity ?? line.quantity;
    // In the order domain/returns.ts keeps a line's keys: an unchanged return then compares equal and is not written.
    return {
      id: localId,
      quantity: line.quantity,
      unreceived_quantity_at_create: before?.unreceived_quantity_at_create ?? unreceived,
      unreceived_quantity: before?.unreceived_quantity ?? unreceived,
      ...takeUpstream(RETURN_LINE_ITEM_FIELDS, line, before),
    };
  });
  return { lines, lineIds };
}

/**
 * An upstream `updated_at` no newer than the one applied last: nothing to do (absent: always apply, it
 * is idempotent). `sameVersion`: a get-one (G) of the version a list item (L) already brought is
 * applied all the same, since it carries fields the list leaves out; only an older one is ignored.
 */
function alreadyApplied(updatedAt: string | null | undefined, link: UpstreamLink | undefined, sameVersion = false): boolean {
  if (updatedAt === null || updatedAt === undefined || link?.upstream_updated_at === undefined) return false;
  return sameVersion ? updatedAt < link.upstream_updated_at : updatedAt <= link.upstream_updated_at;
}

/** A return's fields as the upstream gives them; a field it leaves out keeps the station's value (or an empty one on a new return). */
function returnFields(u: UpstreamReturn, existing: ReturnRecord | undefined) {
  return takeUpstream(RETURN_FIELDS, u, existing);
}

export async function applyUpstreamReturn(
  t: BoundTables,
  accountId: number,
  u: UpstreamReturn,
  now: string,
  claim?: (t: BoundTables) => Promise<ReturnRecord | undefined>,
): Promise<ReturnRecord> {
  let link = await linkOfUpstream(t, accountId, 'return', u.id);
  let existing = link ? await t.returns.get(link.local_id) : undefined;
  // A version already applied (the overlap re-reads it) or an older one arriving late changes nothing.
  if (alreadyApplied(u.updated_at, link) && existing) return existing;
  if (!existing && claim) {
    // A local return whose create's answer was lost, and this is what it made: linked, not copied.
    existing = await claim(t);
    if (existing) link = undefined;
  }
  // A claimed return's lines map by position (the upstream keeps the order it was given).
  const claimedLines =
    existing && !link
      ? Object.fromEntries(existing.return_line_items.flatMap((line, i) => (u.return_line_items[i] ? [[String(line.id), u.return_line_items[i].id]] : [])))
      : {};
  const { lines, lineIds } = await linesOfUpstream(t, u, link?.line_ids ?? claimedLines, existing);
  const fields = {
    account_id: accountId,
    ...returnFields(u, existing),
    return_line_items: lines,
    sku_keys: [...new Set(lines.map((line) => skuKey(line.merchant_sku)))],
  };
  let record: ReturnRecord;
  if (existing) {
    const next: ReturnRecord = { ...existing, ...fields };
    if (link && JSON.stringify(next) === JSON.stringify(existing)) {
      // Nothing changed: only a newer upstream version is worth a write (re-reads of an unchanged page write nothing).
      if (u.updated_at && u.updated_at !== link.upstream_updated_at) await putLink(t, { ...link, upstream_updated_at: u.updated_at }, now);
      return existing;
    }
    record = { ...next, status: deriveReturnStatus(lines), updated_at: advance(existing.updated_at, now) };
    await t.returns.put(record);
    await logChange(t, { account_id: accountId, resource: 'return', resource_id: record.id, action: 'updated', data: record, at: now }, 'upstream');
  } else {
    const draft: Omit<ReturnRecord, 'id'> = { ...fields, status: deriveReturnStatus(lines), created_at: now, updated_at: now };
    const id = await t.returns.add(draft as ReturnRecord);
    record = { ...draft, id };
    await logChange(t, { account_id: accountId, resource: 'return', resource_id: id, action: 'created', data: record, at: now }, 'upstream');
  }
  await putLink(
    t,
    {
      kind: 'return',
      local_id: record.id,
      account_id: accountId,
      upstream_id: u.id,
      synced: {},
      line_ids: lineIds,
      ...(u.updated_at ? { upstream_updated_at: u.updated_at } : {}),
    },
    now,
  );
  return (await recountReturn(t, record.id, now)) ?? record;
}

/**
 * Merges an upstream package into the station: links it (by id, else by tracking number to a local
 * package not yet linked), takes the back office's fields, keeps the dock's, moves status only
 * forward, logs every value it replaced or kept against the upstream, and refreshes the synced snapshot.
 */
export async function applyUpstreamPackage(
  t: BoundTables,
  accountId: number,
  u: UpstreamPackage,
  now: string,
  options: { sameVersion?: boolean } = {},
): Promise<ReturnPackage | NotStored> {
  const returnLink = await linkOfUpstream(t, accountId, 'return', u.return_id);
  const match = await matchLocalPackage(t, accountId, u);
  if ('twinOf' in match)
    return { notStored: `a duplicate upstream: tracking number ${u.tracking_number} is also upstream package ${match.twinOf}, which the station keeps` };
  const { local, link } = match;
  if (alreadyApplied(u.updated_at, link, options.sameVersion) && local) return local;
  const incoming = upstreamValuesFromAnswer(u);
  if (!local) {
    if (!returnLink) throw new MissingReturnError(u.return_id);
    if (!u.status) return { notStored: 'its status is unknown to this station: the package is not stored' };
    return createFromUpstream(t, accountId, { ...u, status: u.status }, returnLink.local_id, incoming, now);
  }
  // Unlinked with nothing unsent (its link dropped for another upstream, sync/links/relink.ts): as if it had
  // always been linked, so the upstream's values are taken. Unlinked with a change waiting: all of it is unsent.
  const waiting = link === undefined && (await t.outbox.get(outboxKey('return_package', local.id))) !== undefined;
  const synced: Record<string, unknown> = { ...(link?.synced ?? (waiting ? {} : localValues(local))) };
  const next = await mergeFields(t, { accountId, local, linked: !waiting, incoming, synced, now });
  // A received package's processing time, from the upstream when the station has none (received elsewhere).
  if (u.processed_at && local.processed_at === null) next.processed_at = u.processed_at;
  const pkg = await saveMerged(t, accountId, local, next, returnLink?.local_id, now);
  // Spread the link: its line items' and media's upload state must survive a pull.
  await putLink(
    t,
    {
      ...link,
      kind: 'return_package',
      local_id: pkg.id,
      account_id: accountId,
      upstream_id: u.id,
      synced,
      ...(u.updated_at ? { upstream_updated_at: u.updated_at } : {}),
    },
    now,
  );
  return pkg;
}

/** Why an upstream package is not on the station (shown to a person with its upstream id). */
export interface NotStored {
  notStored: string;
}

export function isStored(applied: ReturnPackage | NotStored): applied is ReturnPackage {
  return !('notStored' in applied);
}

type PackageMatch = { local: ReturnPackage | undefined; link: UpstreamLink | undefined } | { twinOf: number };

/**
 * The station's package for an upstream one: by its link, else an unlinked local package with the
 * same tracking number (a pending local create of the same parcel: merged, not duplicated). A local
 * package with that number linked to another upstream package is a twin: nothing is applied, and the
 * caller lists it once for a person.
 */
async function matchLocalPackage(t: BoundTables, accountId: number, u: UpstreamPackage): Promise<PackageMatch> {
  const link = await linkOfUpstream(t, accountId, 'return_package', u.id);
  const local = link ? await t.return_packages.get(link.local_id) : undefined;
  if (local) return { local, link };
  const sameTracking = await t.return_packages.withTracking(accountId, trackingKey(u.tracking_number));
  if (!sameTracking) return { local: await cancelAwaitingLookup(t, accountId, u.tracking_number), link };
  const other = await linkOf(t, 'return_package', sameTracking.id);
  if (other && other.upstream_id !== u.id) return { twinOf: other.upstream_id };
  return { local: sameTracking, link: undefined };
}

/**
 * A cancelled package keeps no tracking key (the number may come again on a new parcel), so the
 * index above never finds it: one whose change waits for a read (a lost create, or a relink:
 * sync/links/relink.ts) and that no link claims is looked for among those waiting changes, so its cancel
 * goes to the upstream's package instead of the upstream's package coming here as a second one.
 */
async function cancelAwaitingLookup(t: BoundTables, accountId: number, trackingNumber: string): Promise<ReturnPackage | undefined> {
  const key = trackingKey(trackingNumber);
  const slots = (await t.outbox.ofAccount(accountId)).filter((slot) => slot.kind === 'return_package' && slot.create_attempted_at !== null);
  for (const slot of slots) {
    const pkg = await t.return_packages.get(slot.local_id);
    if (pkg?.status === 'cancelled' && trackingKey(pkg.tracking_number) === key && !(await linkOf(t, 'return_package', pkg.id))) return pkg;
  }
  return undefined;
}

/** A package the station has not seen: created with the upstream's values, linked, its snapshot those values. */
async function createFromUpstream(
  t: BoundTables,
  accountId: number,
  u: UpstreamPackage & { status: ReturnPackage['status'] },
  returnId: number,
  incoming: FieldValues,
  now: string,
): Promise<ReturnPackage> {
  // The synced fields the answer lacks are not known upstream yet: null on both sides.
  const values: Record<string, unknown> = { ...Object.fromEntries(SYNCED_FIELDS.map((f) => [f, null])), ...incoming };
  const draft: Omit<ReturnPackage, 'id'> = {
    ...NEW_PACKAGE_VALUES,
    // As the reader typed them, by the package's field table.
    ...(values as Partial<ReturnPackage>),
    account_id: accountId,
    return_id: returnId,
    tracking_number: u.tracking_number,
    tracking_key: u.status === 'cancelled' ? null : trackingKey(u.tracking_number),
    status: u.status,
    processed_at: u.processed_at ?? null,
    line_items_count: 0,
    created_at: now,
    updated_at: now,
  };
  const id = await t.return_packages.add(draft as ReturnPackage);
  const pkg = { ...draft, id };
  await logChange(t, { account_id: accountId, resource: 'return_package', resource_id: id, action: 'created', data: pkg, at: now }, 'upstream');
  await putLink(
    t,
    {
      kind: 'return_package',
      local_id: id,
      account_id: accountId,
      upstream_id: u.id,
      synced: { ...values },
      ...(u.updated_at ? { upstream_updated_at: u.updated_at } : {}),
    },
    now,
  );
  return pkg;
}

interface MergeInput {
  accountId: number;
  local: ReturnPackage;
  /** False for a pending local create of this parcel: everything local is unsent. */
  linked: boolean;
  incoming: FieldValues;
  /** The synced snapshot; updated in place to the upstream's values. */
  synced: Record<string, unknown>;
  now: string;
}

/** The ownership rules, field by field (docs/decisions/sync.md): the values to take, conflicts logged. */
async function mergeFields(t: BoundTables, { accountId, local, linked, incoming, synced, now }: MergeInput): Promise<Record<string, unknown>> {
  const current = localValues(local);
  const next: Record<string, unknown> = {};
  const conflict = (field: string, kept: 'upstream' | 'station', localValue: unknown, upstreamValue: unknown) =>
    logConflict(t, {
      account_id: accountId,
      kind: 'return_package',
      local_id: local.id,
      field,
      local_value: localValue,
      upstream_value: upstreamValue,
      kept,
      at: now,
    });
  for (const [field, value] of Object.entries(incoming) as Array<[keyof FieldValues, unknown]>) {
    const mine = current[field];
    const base = synced[field];
    synced[field] = value;
    if (sameValue(mine, value)) continue;
    const localChanged = !linked || !sameValue(mine, base);
    const upstreamChanged = !linked || !sameValue(value, base);
    if (UPSTREAM_OWNED.has(field)) {
      next[field] = value;
      // A local value the upstream never saw, replaced: written down for a person to see.
      if (localChanged && mine !== null) await conflict(field, 'upstream', mine, value);
    } else if (field === 'status') {
      // Forward only, whoever moved: an upstream status ahead of the station's is taken (and a local
      // move it overtakes is written down); one behind or beside it leaves the dock's status in place.
      if (canMove(local.status, value as ReturnPackage['status'])) {
        next.status = value;
        if (localChanged) await conflict('status', 'upstream', mine, value);
      } else if (upstreamChanged) await conflict('status', 'station', mine, value);
    } else if (!localChanged) {
      next[field] = value;
    } else if (upstreamChanged && value !== null) {
      await conflict(field, 'station', mine, value);
    }
  }
  return next;
}

/** Writes the merged package when anything changed (or it moved to another return); recounts on receipt. */
async function saveMerged(
  t: BoundTables,
  accountId: number,
  local: ReturnPackage,
  next: Record<string, unknown>,
  upstreamReturnLocal: number | undefined,
  now: string,
): Promise<ReturnPackage> {
  if (Object.keys(next).length === 0 && (upstreamReturnLocal === undefined || upstreamReturnLocal === local.return_id)) return local;
  const pkg: ReturnPackage = { ...local, ...(next as Partial<ReturnPackage>) };
  if (upstreamReturnLocal !== undefined) pkg.return_id = upstreamReturnLocal;
  pkg.tracking_key = pkg.status === 'cancelled' ? null : trackingKey(pkg.tracking_number);
  pkg.updated_at = advance(local.updated_at, now);
  await t.return_packages.put(pkg);
  await logChange(t, { account_id: accountId, resource: 'return_package', resource_id: pkg.id, action: 'updated', data: pkg, at: now }, 'upstream');
  const moved = pkg.return_id !== local.return_id;
  // Adopted under another return: its items take that return's lines, and both returns count again.
  if (moved) await rehomeLineItems(t, pkg, local.return_id, now);
  if (moved || (pkg.status === 'received' && local.status !== 'received')) await recountReturn(t, pkg.return_id, now);
  if (moved) await recountReturn(t, local.return_id, now);
  return pkg;
}

/**
 * Whether an upstream return is the same manual return as a local one: there is no natural key, so by
 * content (customer, date, price, reason, and the lines by SKU and quantity in order). A field the
 * upstream left out does not count against it.
 */
export function sameReturn(local: ReturnRecord, u: UpstreamReturn): boolean {
  const same = <V>(mine: V, theirs: V | null | undefined) => theirs === undefined || theirs === null || theirs === mine;
  return (
    (u.email === undefined || u.email === null || u.email.toLowerCase() === local.email.toLowerCase()) &&
    same(local.receive_by, u.receive_by) &&
    same(local.total_price, u.total_price) &&
    same(local.currency, u.currency) &&
    same(local.reason_of_return, u.reason_of_return) &&
    u.return_line_items.length === local.return_line_items.length &&
    u.return_line_items.every(
      (line, i) => same(local.return_line_items[i]?.merchant_sku, line.merchant_sku) && line.quantity === local.return_line_items[i]?.quantity,
    )
  );
}
