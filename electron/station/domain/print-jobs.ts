import { listMeta, type ListResponse } from '#shared/api/common.ts';
import type { PackageSlip, PrintingStatus, PrintJob, PrintJobState, UnitLabel, UnitLabelRequest } from '#shared/api/printing.ts';
import { fail } from '../errors.ts';
import {
  type BoundTables,
  type Frozen,
  type PackageLineItem,
  type PrintJobRecord,
  type ReadTables,
  type ReturnPackage,
  type StationStore,
} from '../store/index.ts';
import { type DomainContext, runScript } from './context.ts';
import { logChange } from './change-log.ts';
import { dispositionRulesIn } from './dispositions.ts';
import { packageOfAccount } from './packages.ts';
import { serialOfItem } from './serials.ts';
import { invalidReference } from './references.ts';
import { settingsIn } from './station-settings.ts';

/*
 * The label print queue's records (docs/decisions/labels-and-print-queue.md): a job is made in the
 * write of the request that asks for it, holds what its label says at that moment, and is sent by
 * the queue (printing/queue.ts) in id order. A unit's label is made once: asking again answers the
 * job already made (a replayed request prints nothing twice); `reprint` makes a new job.
 */

/** How long a done job (printed, cancelled, handed to the browser) is kept before housekeeping drops it. */
export const PRINT_JOB_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** The text after `prefix` of the first tag that starts with it (case-insensitive prefix), or null. */
function tagValue(tags: readonly string[], prefix: string): string | null {
  const tag = tags.find((t) => t.toLowerCase().startsWith(prefix) && t.length > prefix.length);
  return tag === undefined ? null : tag.slice(prefix.length);
}

/** A field the disposition work adds to line items (`unit_id`, `disposition`, `bin`), read when present. */
function fieldOf(item: Frozen<PackageLineItem>, name: 'unit_id' | 'disposition' | 'bin'): string | null {
  const value = (item as unknown as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The unit id of a line item: its `unit_id`, else its `unit:` tag; null when it has none yet. */
export function unitIdOf(item: Frozen<PackageLineItem>): string | null {
  return fieldOf(item, 'unit_id') ?? tagValue(item.tags, 'unit:');
}

/**
 * The worker named on a label: the operator asked for (who must be on the station, 422 as for
 * `processor_id`), else the package's processor.
 */
async function workerName(t: ReadTables, operatorId: number | null, pkg: Frozen<ReturnPackage> | ReturnPackage): Promise<string | null> {
  if (operatorId !== null) {
    const operator = await t.operators.get(operatorId);
    if (!operator) throw invalidReference('operator_id', `No operator ${operatorId} on this station.`);
    return operator.name;
  }
  if (pkg.processor_id === null) return null;
  return (await t.operators.get(pkg.processor_id))?.name ?? null;
}

/** What labels say besides the item: the worker, and the station's name for each disposition. */
interface LabelFacts {
  worker: string | null;
  dispositionNames: Readonly<Record<string, { label: string }>>;
}

async function labelFacts(t: ReadTables, operatorId: number | null, pkg: Frozen<ReturnPackage> | ReturnPackage): Promise<LabelFacts> {
  return { worker: await workerName(t, operatorId, pkg), dispositionNames: (await dispositionRulesIn(t)).dispositions };
}

/** A disposition as a label says it: the station's name for it ("Return to vendor"); text it does not know, as it is. */
function dispositionName(key: string | null, names: LabelFacts['dispositionNames']): string | null {
  if (key === null) return null;
  return Object.hasOwn(names, key) ? (names[key]?.label ?? key) : key;
}

/** Where a unit goes, as its label (and the evidence pack) says it: the station's name for its disposition, and its bin. */
export function unitPlaceOf(item: Frozen<PackageLineItem>, names: LabelFacts['dispositionNames']): { disposition: string | null; bin: string | null } {
  return {
    disposition: dispositionName(fieldOf(item, 'disposition') ?? tagValue(item.tags, 'disposition:'), names),
    bin: fieldOf(item, 'bin') ?? tagValue(item.tags, 'bin:'),
  };
}

/** What a unit's label says, from its line item and package as they are now. */
export function unitLabelOf(item: Frozen<PackageLineItem>, pkg: Frozen<ReturnPackage> | ReturnPackage, facts: LabelFacts, now: string): UnitLabel {
  const unitId = unitIdOf(item);
  if (unitId === null) throw invalidReference('line_item_id', `Line item ${item.id} has no unit id yet (a unit:<id> tag): its label cannot be printed.`);
  const worker = facts.worker;
  return {
    unit_id: unitId,
    sku: item.merchant_sku,
    name: item.name,
    condition: item.condition,
    serial: serialOfItem(item),
    ...unitPlaceOf(item, facts.dispositionNames),
    tracking_number: pkg.tracking_number,
    date: (pkg.processed_at ?? now).slice(0, 10),
    worker,
  };
}

/** The label that proves a printer prints: a fixed unit id, the station's clock, no package. */
export function testLabel(now: string): UnitLabel {
  return {
    unit_id: 'TEST-LABEL',
    sku: 'TEST',
    name: 'Returns Station test label',
    condition: null,
    disposition: 'test print',
    bin: null,
    tracking_number: null,
    date: now.slice(0, 10),
    worker: null,
  };
}

async function lineItemOf(t: ReadTables, accountId: number, packageId: number, lineItemId: number) {
  const pkg = await packageOfAccount(t, accountId, packageId);
  const item = await t.package_line_items.get(lineItemId);
  if (!item || item.return_package_id !== pkg.id) throw fail('NOT_FOUND', `Return package ${pkg.id} has no line item ${lineItemId}.`);
  return { pkg, item };
}

/** A unit's label as it would print now (for its PDF). */
export async function currentUnitLabel(t: ReadTables, now: string, accountId: number, packageId: number, lineItemId: number): Promise<UnitLabel> {
  const { pkg, item } = await lineItemOf(t, accountId, packageId, lineItemId);
  return unitLabelOf(item, pkg, await labelFacts(t, null, pkg), now);
}

/** Every unit's label of a package as it would print now, in line order (its PDF); 422 when no unit has an id yet. */
export async function currentPackageLabels(
  t: ReadTables,
  now: string,
  accountId: number,
  packageId: number,
): Promise<{ pkg: Frozen<ReturnPackage>; labels: UnitLabel[] }> {
  const pkg = await packageOfAccount(t, accountId, packageId);
  const items = await t.package_line_items.ofPackage(pkg.id);
  const facts = await labelFacts(t, null, pkg);
  const labels = items.filter((item) => unitIdOf(item) !== null).map((item) => unitLabelOf(item, pkg, facts, now));
  if (labels.length === 0) throw invalidReference('id', `Return package ${pkg.id} has no unit with a unit id yet: no label to print.`);
  return { pkg, labels };
}

type NewJob = Pick<PrintJobRecord, 'kind' | 'unit_id' | 'account_id' | 'return_package_id' | 'line_item_id' | 'label' | 'reprint_of'>;

/** Adds a job: waiting for the queue, or handed to the browser when the browser is the printer. */
async function addJob(t: BoundTables, now: string, job: NewJob): Promise<PrintJobRecord> {
  const { labels } = await settingsIn(t);
  const inBrowser = labels.printer.kind === 'browser';
  const draft: Omit<PrintJobRecord, 'id'> = {
    ...job,
    state: inBrowser ? 'in_browser' : 'waiting',
    attempts: 0,
    last_error: null,
    next_attempt_at: inBrowser ? null : now,
    printed_on: null,
    printed_at: null,
    created_at: now,
    updated_at: now,
  };
  const id = await t.print_jobs.add(draft as PrintJobRecord);
  return { ...draft, id };
}

/** The newest label job of a unit that was not cancelled (waiting, sent, printed, handed to the browser), or undefined. */
export async function labelJobOfUnit(t: ReadTables, unitId: string): Promise<PrintJobRecord | undefined> {
  const jobs = await t.print_jobs.ofUnit(unitId);
  return jobs.filter((job) => job.kind === 'unit' && job.state !== 'cancelled').at(-1);
}

/** Marks the item as labelled (the first time its unit gets a job), in the same write: its view says so. False when it already was. */
async function markLabelled(t: BoundTables, item: Frozen<PackageLineItem> | PackageLineItem, now: string): Promise<boolean> {
  if (item.labelled_at) return false;
  await t.package_line_items.put({ ...(item as PackageLineItem), labelled_at: now });
  return true;
}

/**
 * Tells those following the account's events (a terminal with the package open) that a unit of it
 * was labelled or its label withdrawn: its `labelled_at` changed, and with it whether − may take it
 * off. A station's own fact: nothing is sent upstream for it.
 */
async function announceLabels(t: BoundTables, pkg: Frozen<ReturnPackage>, now: string): Promise<void> {
  await logChange(t, { account_id: pkg.account_id, resource: 'return_package', resource_id: pkg.id, action: 'updated', data: pkg, at: now }, 'station');
}

/**
 * A unit's label, in the request's write: the job already made for the unit unless `reprint`
 * (then a new one naming the last as `reprint_of`). `created` says which.
 */
export async function enqueueUnitLabel(
  t: BoundTables,
  now: string,
  ids: { accountId: number; packageId: number; lineItemId: number },
  request: UnitLabelRequest,
): Promise<{ job: PrintJobRecord; created: boolean }> {
  const { pkg, item } = await lineItemOf(t, ids.accountId, ids.packageId, ids.lineItemId);
  const label = unitLabelOf(item, pkg, await labelFacts(t, request.operator_id, pkg), now);
  const earlier = await labelJobOfUnit(t, label.unit_id);
  if (earlier && !request.reprint) return { job: earlier, created: false };
  const job = await addJob(t, now, {
    kind: 'unit',
    unit_id: label.unit_id,
    account_id: ids.accountId,
    return_package_id: pkg.id,
    line_item_id: item.id,
    label,
    reprint_of: request.reprint ? (earlier?.id ?? null) : null,
  });
  if (await markLabelled(t, item, now)) await announceLabels(t, pkg, now);
  return { job, created: true };
}

/**
 * Every unit of a package that has a unit id and no label yet, in line item order, and (when the
 * settings ask for it) one package slip listing them all: the labels a received package needs.
 */
export async function enqueuePackageLabels(
  t: BoundTables,
  now: string,
  accountId: number,
  packageId: number,
  operatorId: number | null,
  /** False when the caller's own change of the package already tells its followers (a receipt). */
  announce = true,
): Promise<PrintJobRecord[]> {
  const pkg = await packageOfAccount(t, accountId, packageId);
  const items = await t.package_line_items.ofPackage(pkg.id);
  const facts = await labelFacts(t, operatorId, pkg);
  const worker = facts.worker;
  const labels = items.filter((item) => unitIdOf(item) !== null).map((item) => ({ item, label: unitLabelOf(item, pkg, facts, now) }));
  const jobs: PrintJobRecord[] = [];
  let marked = false;
  for (const { item, label } of labels) {
    if (await labelJobOfUnit(t, label.unit_id)) continue;
    jobs.push(
      await addJob(t, now, {
        kind: 'unit',
        unit_id: label.unit_id,
        account_id: accountId,
        return_package_id: pkg.id,
        line_item_id: item.id,
        label,
        reprint_of: null,
      }),
    );
    marked = (await markLabelled(t, item, now)) || marked;
  }
  if (marked && announce) await announceLabels(t, pkg, now);
  const settings = await settingsIn(t);
  if (settings.labels.package_slip && jobs.length > 0) {
    const slip: PackageSlip = {
      tracking_number: pkg.tracking_number,
      return_package_id: pkg.id,
      date: (pkg.processed_at ?? now).slice(0, 10),
      worker,
      units: labels.map(({ label }) => ({ unit_id: label.unit_id, sku: label.sku, disposition: label.disposition, bin: label.bin })),
    };
    jobs.push(
      await addJob(t, now, {
        kind: 'slip',
        unit_id: null,
        account_id: accountId,
        return_package_id: pkg.id,
        line_item_id: null,
        label: slip,
        reprint_of: null,
      }),
    );
  }
  return jobs;
}

/**
 * The labels of a package just received: every unit's (and the slip, when set), queued for the
 * station's label printer or system printer. With the browser as the printer nothing is queued: the
 * worker prints a label from the screen when wanted.
 */
export async function labelsOnReceipt(t: BoundTables, now: string, accountId: number, packageId: number): Promise<PrintJobRecord[]> {
  if ((await settingsIn(t)).labels.printer.kind === 'browser') return [];
  // The package's processor is named on them (no operator asked for).
  return enqueuePackageLabels(t, now, accountId, packageId, null, false);
}

export function enqueueTestLabel(t: BoundTables, now: string): Promise<PrintJobRecord> {
  return addJob(t, now, {
    kind: 'test',
    unit_id: null,
    account_id: null,
    return_package_id: null,
    line_item_id: null,
    label: testLabel(now),
    reprint_of: null,
  });
}

/** The labels still to print and why the oldest did not print yet (the station status). */
export async function printingStatus(t: ReadTables): Promise<PrintingStatus> {
  const heads = [await t.print_jobs.oldestIn('waiting'), await t.print_jobs.oldestIn('sending')].filter((job) => job !== undefined).sort((a, b) => a.id - b.id);
  return { waiting: (await t.print_jobs.countIn('waiting')) + (await t.print_jobs.countIn('sending')), problem: heads[0]?.last_error ?? null };
}

export function printJobView(job: PrintJobRecord): PrintJob {
  return { ...job };
}

/** A page of jobs, newest first, of the states asked for (all when none). */
export async function listPrintJobs(
  t: ReadTables,
  query: { page: number; per_page: number; state?: PrintJobState[] | undefined },
): Promise<ListResponse<PrintJob>> {
  const states = query.state;
  const all = (await t.print_jobs.newestFirst()).filter((job) => states === undefined || states.includes(job.state));
  const start = (query.page - 1) * query.per_page;
  return { data: all.slice(start, start + query.per_page).map(printJobView), meta: listMeta(query.page, query.per_page, all.length) };
}

export async function printJobOf(t: ReadTables, id: number): Promise<PrintJobRecord> {
  const job = await t.print_jobs.get(id);
  if (!job) throw fail('NOT_FOUND', `No print job ${id}.`);
  return job;
}

/** A unit whose every label job is cancelled is no longer labelled: it may be removed again. */
async function unmarkIfNoLabel(t: BoundTables, now: string, job: PrintJobRecord): Promise<void> {
  if (job.kind !== 'unit' || job.unit_id === null || job.line_item_id === null) return;
  if (await labelJobOfUnit(t, job.unit_id)) return;
  const item = await t.package_line_items.get(job.line_item_id);
  if (!item?.labelled_at) return;
  await t.package_line_items.put({ ...item, labelled_at: null });
  const pkg = await t.return_packages.get(item.return_package_id);
  if (pkg) await announceLabels(t, pkg, now);
}

/** Cancels a waiting job; a job being sent, printed or handed to the browser cannot be (409). */
export async function cancelPrintJob(t: BoundTables, now: string, id: number): Promise<PrintJobRecord> {
  const job = await printJobOf(t, id);
  if (job.state === 'cancelled') return job;
  if (job.state !== 'waiting') throw fail('INVALID_STATUS_TRANSITION', `Print job ${id} is ${job.state}: only a waiting job can be cancelled.`);
  const next: PrintJobRecord = { ...job, state: 'cancelled', next_attempt_at: null, updated_at: now };
  await t.print_jobs.put(next);
  await unmarkIfNoLabel(t, now, job);
  return next;
}

// The queue's steps (printing/queue.ts), each one durable write.

/**
 * The next job to send: the queue's head, the oldest waiting job, when it is due (`anyWaiting`:
 * at once). A printer's queue is strictly first in, first out: later jobs wait behind a head that
 * failed, so labels come out in the order they were asked for, also after an outage. Undefined,
 * with when the head is due, when it is not.
 */
export async function nextDueJob(ctx: DomainContext, anyWaiting = false): Promise<{ job?: PrintJobRecord; nextAt?: string }> {
  const now = ctx.clock.now();
  const head = await ctx.store.tables.print_jobs.oldestIn('waiting');
  if (!head) return {};
  const due = head.next_attempt_at ?? now;
  return anyWaiting || due <= now ? { job: head } : { nextAt: due };
}

/** Marks the job as being sent, before a byte goes out; false when it is no longer waiting (cancelled meanwhile). */
export function markSending(ctx: DomainContext, id: number): Promise<PrintJobRecord | undefined> {
  return runScript(ctx, async (t, now) => {
    const job = await t.print_jobs.get(id);
    if (!job || job.state !== 'waiting') return undefined;
    const next: PrintJobRecord = { ...job, state: 'sending', attempts: job.attempts + 1, updated_at: now };
    await t.print_jobs.put(next);
    return next;
  });
}

/** The printer acknowledged the job: it is never sent again. */
export function markPrinted(ctx: DomainContext, id: number, printedOn: string): Promise<void> {
  return updateJob(ctx, id, (job, now) => ({
    ...job,
    state: 'printed',
    last_error: null,
    next_attempt_at: null,
    printed_on: printedOn,
    printed_at: now,
    updated_at: now,
  }));
}

/** The send failed before the printer acknowledged it: waiting again, tried at `nextAt`. */
export function markFailed(ctx: DomainContext, id: number, error: string, nextAt: string): Promise<void> {
  return updateJob(ctx, id, (job, now) => ({ ...job, state: 'waiting', last_error: error, next_attempt_at: nextAt, updated_at: now }));
}

/** The browser is the printer: the job is the UI's to open. */
export function markInBrowser(ctx: DomainContext, id: number): Promise<void> {
  return updateJob(ctx, id, (job, now) => ({ ...job, state: 'in_browser', next_attempt_at: null, updated_at: now }));
}

/**
 * At start: a job found `sending` was cut off mid-send by a stop or a crash, unacknowledged, so it
 * waits again and is sent again (at least once: a label cut off may or may not have printed, and a
 * missing label is worse than a second one of the same unit). Resolves to how many.
 */
export async function requeueInterrupted(ctx: DomainContext): Promise<number> {
  const sending = await ctx.store.tables.print_jobs.idsIn('sending');
  for (const id of sending) {
    await updateJob(ctx, id, (job, now) =>
      job.state === 'sending'
        ? { ...job, state: 'waiting', last_error: 'The station stopped while sending this job: sent again.', next_attempt_at: now, updated_at: now }
        : job,
    );
  }
  return sending.length;
}

function updateJob(ctx: DomainContext, id: number, change: (job: PrintJobRecord, now: string) => PrintJobRecord): Promise<void> {
  return runScript(ctx, async (t, now) => {
    const job = await t.print_jobs.get(id);
    if (job) await t.print_jobs.put(change(job, now));
  });
}

/** Drops done jobs (printed, cancelled, in the browser) not changed for the retention (housekeeping). */
export function pruneDonePrintJobs(store: StationStore, now: string): Promise<number> {
  const cutoff = new Date(Date.parse(now) - PRINT_JOB_RETENTION_MS).toISOString();
  return store.write(['print_jobs'], (t) => t.print_jobs.deleteChangedBefore(cutoff, ['printed', 'cancelled', 'in_browser']));
}
