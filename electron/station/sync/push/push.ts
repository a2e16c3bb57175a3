import { RETURN_FIELDS, RETURN_LINE_ITEM_FIELDS } from '#shared/fields/return.ts';
import { goesUpOnCreate, pickWhere } from '#shared/fields/table.ts';
import { CREATE_STATUSES, type CreateStatus } from '#shared/package-status.ts';
import { type OutboxEntry, type ReturnPackage, type ReturnRecord, type BoundTables, type UpstreamLink } from '../../store/index.ts';
import { applyUpstreamPackage } from '../links/apply-upstream.ts';
import type { RoundReport, SyncContext } from '../sync-context.ts';
import { answerKind, backoffMs, errorOf, pauseFrom, type UpstreamAnswer, upstreamMessage } from '../upstream/answers.ts';
import { lineItemsUnsent, pushLineItems } from './line-items-push.ts';
import { linkOf, putLink } from '../links/upstream-links.ts';
import { mediaUnsent, pushMedia } from './media-push.ts';
import { slotsToSend } from './push-order.ts';
import { EMPTY_AFTER_CREATE, type FieldValues, localValues, SENT_ON_CREATE, statusHeldBack, unsentFields, upstreamValues } from '../links/package-fields.ts';
import { UpstreamUnreachableError } from '../upstream/upstream-client.ts';
import { UpstreamBackingOffError, upstreamFailing } from '../upstream/upstream-gate.ts';
import { readChanges } from '../lists/change-feed.ts';
import { continuePass, type ListKind, readNewest } from '../lists/list-scan.ts';
import { listState } from '../lists/list-state.ts';
import { PACKAGES, RETURNS } from '../lists/list-kinds.ts';
import { readUpstreamPackage, readUpstreamReturn, type UpstreamPackage, type UpstreamReturn } from '../upstream/upstream-records.ts';
import { usesSiteInterface } from '../upstream/hub-interface.ts';
import { accountState } from '../account-state.ts';
import { recordedBeforeRelink, RELINK_CANCELLED_HELD } from '../links/relink.ts';

/*
 * Push: sends the outbox of one account, returns before packages, oldest first. Every slot is
 * settled on its own (sent, parked, gone or backed off), so a change that cannot go through never
 * blocks the others. A lost answer (network error, timeout) or a 5xx stops the round: the upstream
 * is away or failing, and the rate budget backs it off as a whole.
 */

type Outcome = 'done' | 'waiting' | 'held' | 'retry';

export async function pushAccount(sc: SyncContext, accountId: number, report: RoundReport): Promise<void> {
  const now = sc.clock.now();
  const isDue = (entry: OutboxEntry | undefined): entry is OutboxEntry =>
    entry !== undefined && entry.hold === null && (entry.next_attempt_at === null || entry.next_attempt_at <= now);
  // The ledger orders the due slots; a slot that failed before goes after the fresh ones (push-order.ts).
  const keys = await sc.outbox.due(accountId, Date.parse(now));
  for await (const entry of slotsToSend(sc.store, keys, isDue)) await pushOne(sc, entry, report);
}

/**
 * Sends one slot. No answer, or a failing one (5xx), backs the slot off and stops the round: the
 * rate budget's gate holds every request to the upstream now (upstream-gate.ts).
 */
async function pushOne(sc: SyncContext, entry: OutboxEntry, report: RoundReport): Promise<void> {
  try {
    const outcome = entry.kind === 'return' ? await pushReturn(sc, entry, report) : await pushPackage(sc, entry, report);
    if (outcome === 'waiting') report.waiting += 1;
  } catch (error) {
    if (!(error instanceof UpstreamUnreachableError || error instanceof UpstreamBackingOffError)) throw error;
    await backOff(sc, entry, error instanceof UpstreamBackingOffError ? error.answer : null, error.message);
    report.retrying += 1;
    throw error;
  }
}

function write<T>(sc: SyncContext, fn: (t: BoundTables) => Promise<T>): Promise<T> {
  return sc.store.write((t) => fn(t));
}

function idempotencyKey(sc: SyncContext, entry: OutboxEntry): string {
  return `returns-station-sync:${sc.instanceId}:${entry.key}`;
}

/** Clears the slot when the record has nothing unsent left; else it stays for the next send. */
async function settle(sc: SyncContext, entry: OutboxEntry, hasUnsent: (t: BoundTables) => Promise<boolean>): Promise<void> {
  await write(sc, async (t) => {
    const current = await t.outbox.get(entry.key);
    if (!current) return;
    if (await hasUnsent(t)) await t.outbox.put({ ...current, attempts: 0, next_attempt_at: null, error: null, hold: null });
    else await t.outbox.delete(entry.key);
  });
}

async function backOff(sc: SyncContext, entry: OutboxEntry, answer: UpstreamAnswer | null, message: string): Promise<void> {
  const attempts = entry.attempts + 1;
  const at = new Date(Date.parse(sc.clock.now()) + backoffMs(attempts, sc.random)).toISOString();
  await updateSlot(sc, entry, { attempts, next_attempt_at: at, error: errorOf(answer, message) });
}

async function hold(sc: SyncContext, entry: OutboxEntry, kind: 'parked' | 'gone', answer: UpstreamAnswer, report: RoundReport): Promise<void> {
  await updateSlot(sc, entry, { hold: kind, error: errorOf(answer, `HTTP ${answer.status}`) });
  if (kind === 'parked') report.parked += 1;
  else report.gone += 1;
}

async function updateSlot(sc: SyncContext, entry: OutboxEntry, patch: Partial<OutboxEntry>): Promise<void> {
  await write(sc, async (t) => {
    const current = await t.outbox.get(entry.key);
    if (current) await t.outbox.put({ ...current, ...patch });
  });
}

/** An answer that is not a success: parks, pauses, or backs off. Returns the outcome for the slot. */
async function failed(sc: SyncContext, entry: OutboxEntry, answer: UpstreamAnswer, report: RoundReport): Promise<Outcome> {
  switch (answerKind(answer.status)) {
    case 'auth':
      throw pauseFrom(answer);
    case 'park':
    case 'conflict':
      await hold(sc, entry, 'parked', answer, report);
      return 'held';
    case 'gone':
      await hold(sc, entry, 'gone', answer, report);
      return 'held';
    default:
      // The upstream itself fails: the slot backs off in pushOne and the round stops there.
      if (upstreamFailing(answer.status))
        throw new UpstreamBackingOffError(`The upstream is failing (${answer.status}: ${upstreamMessage(answer).message}).`, answer);
      await backOff(sc, entry, answer, `HTTP ${answer.status}`);
      report.retrying += 1;
      return 'retry';
  }
}

async function send(sc: SyncContext, request: Parameters<SyncContext['client']['send']>[0]): Promise<UpstreamAnswer> {
  const answer = await sc.client.send(request);
  // Pushes always get a budget (they wait for it); a null is a pull's answer only.
  if (!answer) throw new Error('The rate budget refused a push.');
  return answer;
}

// -- returns ---------------------------------------------------------------------------------------

/** What a return's create sends: the fields that go up on create, each line with the count given at its create. */
function returnBody(record: ReturnRecord) {
  const body: Record<string, unknown> = pickWhere(RETURN_FIELDS, record, goesUpOnCreate);
  body.return_line_items = record.return_line_items.map((line) => ({
    ...pickWhere(RETURN_LINE_ITEM_FIELDS, line, goesUpOnCreate),
    unreceived_quantity: line.unreceived_quantity_at_create,
  }));
  return body;
}

async function linkReturn(sc: SyncContext, entry: OutboxEntry, local: ReturnRecord, u: UpstreamReturn): Promise<void> {
  await write(sc, async (t) => {
    // Lines map by position: the upstream keeps the order it was given.
    const lineIds: Record<string, number> = {};
    local.return_line_items.forEach((line, i) => {
      const upstreamLine = u.return_line_items[i];
      if (upstreamLine) lineIds[String(line.id)] = upstreamLine.id;
    });
    await putLink(
      t,
      {
        kind: 'return',
        local_id: local.id,
        account_id: local.account_id,
        upstream_id: u.id,
        synced: {},
        line_ids: lineIds,
        ...(u.updated_at ? { upstream_updated_at: u.updated_at } : {}),
      },
      sc.clock.now(),
    );
    await t.outbox.delete(entry.key);
  });
}

/**
 * A create whose answer was lost (or said nothing of what it made) is looked for before anything is
 * sent again, without trusting a filter: what it made is at the newest end of the list (or in the
 * verified change feed), and reading there stores it, linked to the local record (packages by
 * tracking number, returns by content). 'settled' once such a read began after the create was sent;
 * 'waiting' when the budget or an unknown list order leaves it open: it is never sent blind.
 */
async function settleLostCreate<T extends { id: number }>(
  sc: SyncContext,
  kind: ListKind<T>,
  accountId: number,
  attemptedAt: string,
  report: RoundReport,
): Promise<'settled' | 'waiting'> {
  const state = await listState(sc.store.tables, accountId, kind.list);
  if (state.settled_at !== null && state.settled_at > attemptedAt) return 'settled';
  if (state.changes === 'honoured' && state.pass === null && state.passed_at !== null) {
    if ((await readChanges(sc, kind, accountId, report, 'push')) === 'done') return 'settled';
  }
  const newest = await readNewest(sc, kind, accountId, report, 'push');
  if (newest === 'done') return 'settled';
  if (newest === 'unknown-order' && (await continuePass(sc, kind, accountId, report, { maxPages: LOOKUP_PAGES, priority: 'push' })) === 'done') {
    const after = await listState(sc.store.tables, accountId, kind.list);
    if (after.settled_at !== null && after.settled_at > attemptedAt) return 'settled';
  }
  return 'waiting';
}

/** Pages a round may read to settle lost creates when the list's order is not known (a full pass). */
const LOOKUP_PAGES = 50;

/** Marks a slot as waiting for a lost create to be settled (shown on the sync screen). */
async function waitForLookup(sc: SyncContext, entry: OutboxEntry, what: string): Promise<Outcome> {
  await updateSlot(sc, entry, {
    error: {
      status: null,
      code: 'LOOKING_UPSTREAM',
      message: `The answer to this ${what}'s create was lost; it is looked for upstream before it is sent again (the rate budget left it for a later round).`,
    },
  });
  return 'waiting';
}

async function pushReturn(sc: SyncContext, entry: OutboxEntry, report: RoundReport): Promise<Outcome> {
  const local = await sc.store.tables.returns.get(entry.local_id);
  const linked = async () => (await linkOf(sc.store.tables, 'return', entry.local_id)) !== undefined;
  // A return goes up once; later changes are the station's own counts (the upstream keeps its own).
  if (!local || (await linked())) {
    await settle(sc, entry, async () => false);
    return 'done';
  }
  if (entry.create_attempted_at !== null) {
    const settled = await settleLostCreate(sc, RETURNS, local.account_id, entry.create_attempted_at, report);
    if (await linked()) {
      await settle(sc, entry, async () => false);
      report.adopted += 1;
      return 'done';
    }
    if (settled === 'waiting') return waitForLookup(sc, entry, 'return');
  }
  const attemptedAt = sc.clock.now();
  await updateSlot(sc, entry, { create_attempted_at: attemptedAt });
  const answer = await send(sc, {
    method: 'POST',
    url: sc.client.returnsUrl(),
    json: returnBody(local),
    idempotencyKey: idempotencyKey(sc, entry),
    priority: 'push',
  });
  if (answerKind(answer.status) !== 'ok') return failed(sc, entry, answer, report);
  const created = readUpstreamReturn(answer.body);
  if (created.ok) {
    await linkReturn(sc, entry, local, created.record);
    report.created += 1;
    return 'done';
  }
  // Accepted, but the answer does not say what it made (the spec shows no body): find it at the newest end.
  await settleLostCreate(sc, RETURNS, local.account_id, attemptedAt, report);
  if (await linked()) {
    await settle(sc, entry, async () => false);
    report.created += 1;
    return 'done';
  }
  return waitForLookup(sc, entry, 'return');
}

// -- return packages -------------------------------------------------------------------------------

function createBody(pkg: ReturnPackage, upstreamReturnId: number) {
  const values = localValues(pkg);
  const body: Record<string, unknown> = { return_id: upstreamReturnId };
  for (const field of SENT_ON_CREATE) if (values[field] !== null) body[field] = values[field];
  // A create takes a create status only: a package moved on since goes up `pending`, its status in the update after.
  // A package held for review goes up as arrived, not received, until a supervisor decides (statusHeldBack).
  const status: CreateStatus = statusHeldBack(pkg)
    ? 'delivered'
    : (CREATE_STATUSES as readonly string[]).includes(pkg.status)
      ? (pkg.status as CreateStatus)
      : 'pending';
  body.status = status;
  return body;
}

/**
 * Takes an upstream package as this local one. Its return is read first when the station lacks it (as
 * a pull does): a parcel the upstream holds under another return than the local package's moves to that
 * return, its items with it (apply-upstream.ts), instead of keeping lines the upstream's return lacks.
 * Returns the local package's link as the adoption left it.
 */
async function adoptPackage(sc: SyncContext, pkg: ReturnPackage, u: UpstreamPackage, report: RoundReport): Promise<UpstreamLink | undefined> {
  await PACKAGES.prepare?.(sc, pkg.account_id, [u], report, 'push');
  return write(sc, async (t) => {
    await applyUpstreamPackage(t, pkg.account_id, u, sc.clock.now());
    return linkOf(t, 'return_package', pkg.id);
  });
}

async function getPackage(sc: SyncContext, accountId: number, upstreamId: number): Promise<UpstreamAnswer> {
  return send(sc, { method: 'GET', url: sc.client.packagesUrl(accountId, upstreamId), priority: 'push' });
}

async function pushPackage(sc: SyncContext, entry: OutboxEntry, report: RoundReport): Promise<Outcome> {
  const pkg = await sc.store.tables.return_packages.get(entry.local_id);
  if (!pkg) {
    await settle(sc, entry, async () => false);
    return 'done';
  }
  const link = (await linkOf(sc.store.tables, 'return_package', pkg.id)) ?? (await linkPackage(sc, entry, pkg, report));
  if (typeof link === 'string') return link;
  // As it is now: an adoption may have moved it to the upstream's return (its items with it).
  const current = (await sc.store.tables.return_packages.get(pkg.id)) ?? pkg;
  // Inspected items first: a move to received upstream then counts them against the return.
  const items = await pushLineItems(sc, current, link);
  if (!items.ok) return failed(sc, entry, items.answer, report);
  // Its media before the PATCH too: what the PATCH reports (received, inspected) has its photos upstream.
  const media = await pushMedia(sc, current, link, report);
  if (!media.ok) return failed(sc, entry, media.answer, report);
  // The PATCH diffs against the link as stored now: a dock read may have applied the upstream's values while items and photos went up.
  return patchPackage(sc, entry, (await linkOf(sc.store.tables, 'return_package', pkg.id)) ?? link, report, true);
}

/**
 * A package with no upstream twin yet: its return goes first; a create whose answer was lost is
 * looked for upstream before anything is sent again; else it is created. Its link, or the slot's
 * outcome when it is not linked now.
 */
async function linkPackage(sc: SyncContext, entry: OutboxEntry, pkg: ReturnPackage, report: RoundReport): Promise<UpstreamLink | Outcome> {
  const returnLink = await linkOf(sc.store.tables, 'return', pkg.return_id);
  if (!returnLink) return 'waiting'; // its return goes first
  if (entry.create_attempted_at !== null) {
    const settled = await settleLostCreate(sc, PACKAGES, pkg.account_id, entry.create_attempted_at, report);
    const found = await linkOf(sc.store.tables, 'return_package', pkg.id);
    if (found) {
      report.adopted += 1;
      return found;
    }
    if (settled === 'waiting') return waitForLookup(sc, entry, 'package');
    if (pkg.status === 'cancelled' && recordedBeforeRelink(await accountState(sc.store.tables, pkg.account_id), entry.create_attempted_at)) {
      await updateSlot(sc, entry, RELINK_CANCELLED_HELD);
      report.parked += 1;
      return 'held';
    }
  }
  return createPackage(sc, entry, pkg, returnLink.upstream_id, report);
}

/** POSTs the package (or adopts the parcel when it is upstream already): its link, or the slot's outcome. */
async function createPackage(
  sc: SyncContext,
  entry: OutboxEntry,
  pkg: ReturnPackage,
  upstreamReturnId: number,
  report: RoundReport,
): Promise<UpstreamLink | Outcome> {
  const attemptedAt = sc.clock.now();
  await updateSlot(sc, entry, { create_attempted_at: attemptedAt });
  const body = createBody(pkg, upstreamReturnId);
  const answer = await send(sc, {
    method: 'POST',
    url: sc.client.packagesUrl(pkg.account_id),
    json: body,
    idempotencyKey: idempotencyKey(sc, entry),
    priority: 'push',
  });
  const existingId = (answer.body as { details?: { existing_id?: unknown } } | null)?.details?.existing_id;
  if (answer.status === 409 && typeof existingId === 'number') {
    // The parcel is already upstream (made by another station, or by a lost answer): adopt it.
    const existing = await getPackage(sc, pkg.account_id, existingId);
    const parsed = readUpstreamPackage(existing.body);
    if (answerKind(existing.status) !== 'ok' || !parsed.ok) return failed(sc, entry, existing, report);
    const adopted = await adoptPackage(sc, pkg, parsed.record, report);
    report.adopted += 1;
    return adopted ?? 'retry';
  }
  if (answerKind(answer.status) !== 'ok') return failed(sc, entry, answer, report);
  const created = readUpstreamPackage(answer.body);
  if (!created.ok) {
    // Accepted, but the answer does not say what it made: find it at the newest end.
    await settleLostCreate(sc, PACKAGES, pkg.account_id, attemptedAt, report);
    const found = await linkOf(sc.store.tables, 'return_package', pkg.id);
    if (!found) return waitForLookup(sc, entry, 'package');
    report.created += 1;
    return found;
  }
  const upstream = created.record;
  const link = await write(sc, async (t) => {
    const sent: FieldValues = { ...body, status: body.status } as FieldValues;
    // What the create set, as the upstream says; fields the answer lacks count as sent when sent, else unknown.
    const synced = {
      ...EMPTY_AFTER_CREATE,
      ...Object.fromEntries(Object.entries(sent).filter(([k]) => k !== 'return_id')),
      ...upstreamValues(upstream),
    };
    return putLink(
      t,
      {
        kind: 'return_package',
        local_id: pkg.id,
        account_id: pkg.account_id,
        upstream_id: upstream.id,
        synced,
        ...(upstream.updated_at ? { upstream_updated_at: upstream.updated_at } : {}),
      },
      sc.clock.now(),
    );
  });
  report.created += 1;
  return link;
}

async function patchPackage(sc: SyncContext, entry: OutboxEntry, link: UpstreamLink, report: RoundReport, mayRetry: boolean): Promise<Outcome> {
  const pkg = await sc.store.tables.return_packages.get(link.local_id);
  if (!pkg) return 'done';
  const diff = unsentFields(pkg, link.synced, usesSiteInterface(sc));
  if (Object.keys(diff).length === 0) {
    await settleAgainst(sc, entry, link.local_id);
    return 'done';
  }
  const answer = await send(sc, { method: 'PATCH', url: sc.client.packagesUrl(pkg.account_id, link.upstream_id), json: diff, priority: 'push' });
  if (answer.status === 409 && mayRetry) {
    // Re-read, merge by the ownership rules, and try once more.
    const current = await getPackage(sc, pkg.account_id, link.upstream_id);
    const parsed = readUpstreamPackage(current.body);
    if (answerKind(current.status) !== 'ok' || !parsed.ok) return failed(sc, entry, current, report);
    const merged = await adoptPackage(sc, pkg, parsed.record, report);
    return merged ? patchPackage(sc, entry, merged, report, false) : 'retry';
  }
  if (answerKind(answer.status) !== 'ok') return failed(sc, entry, answer, report);
  // What was sent is now known on both sides; an edit made meanwhile still differs and stays queued.
  await write(sc, async (t) => {
    const current = await linkOf(t, 'return_package', pkg.id);
    if (current) await putLink(t, { ...current, synced: { ...current.synced, ...diff } }, sc.clock.now());
  });
  report.updated += 1;
  await settleAgainst(sc, entry, pkg.id);
  return 'done';
}

async function settleAgainst(sc: SyncContext, entry: OutboxEntry, packageId: number): Promise<void> {
  await settle(sc, entry, async (t) => {
    const pkg = await t.return_packages.get(packageId);
    const link = await linkOf(t, 'return_package', packageId);
    if (pkg === undefined || link === undefined) return false;
    const site = usesSiteInterface(sc);
    return Object.keys(unsentFields(pkg, link.synced, site)).length > 0 || (await lineItemsUnsent(t, pkg, link, site)) || (await mediaUnsent(t, pkg, link));
  });
}
