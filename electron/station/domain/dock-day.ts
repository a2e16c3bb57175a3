import { stringify } from 'csv-stringify/sync';
import {
  DOCK_DAY_LIST_LIMIT,
  DOCK_DAY_OVERRIDE_REASONS,
  type DockDay,
  type DockDayBin,
  type DockDayOverride,
  type DockDayOverrideWorker,
  type DockDayPackage,
  type DockDayReview,
  RECEIPT_CSV_COLUMNS,
} from '#shared/api/dock-day.ts';
import { type Disposition, DISPOSITIONS } from '#shared/dispositions.ts';
import type { Frozen, PackageFilters, PackageLineItem, PackageSort, ReadTables, ReturnPackage, ReturnRecord } from '../store/index.ts';
import type { DomainContext } from './context.ts';
import { lineItemsOf } from './line-items.ts';
import { SYNC_DISABLED } from './sync-port.ts';

/*
 * The supervisor's dock day (docs/api-reference.md, Dock day). Every question is an indexed query on
 * the SQLite copy (docs/decisions/lists-from-sqlite.md) — the day's receipts are a range of the
 * (status, processed_at) index — so the cost follows the day, not the station's history.
 */

/** A local midnight: `new Date(y, m, d)` would read years 0–99 as 1900–1999, so the year is set on its own. */
function localMidnight(year: number, monthIndex: number, day: number): Date {
  const date = new Date(2000, 0, 1);
  date.setFullYear(year, monthIndex, day);
  date.setHours(0, 0, 0, 0);
  return date;
}

/**
 * The station's local calendar day `date` (today when absent) as the UTC instants it spans. Every
 * date of the API's `YYYY-MM-DD` is a day, years 0000–0999 too (`0195-06-06` is year 195, written
 * with its four digits, as the CSV file's name).
 */
export function localDay(date: string | undefined, now: Date): { date: string; start: Date; end: Date } {
  const [y, m, d] = date ? (date.split('-').map(Number) as [number, number, number]) : [now.getFullYear(), now.getMonth() + 1, now.getDate()];
  const start = localMidnight(y, m - 1, d);
  const end = localMidnight(y, m - 1, d + 1);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return { date: `${pad(start.getFullYear(), 4)}-${pad(start.getMonth() + 1)}-${pad(start.getDate())}`, start, end };
}

export function stationTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Ids of every package matching `filters`, a page of ids at a time (the records come from the store). */
function* packageIds(ctx: DomainContext, filters: PackageFilters, sort: PackageSort, limit = Number.POSITIVE_INFINITY): Generator<number[]> {
  const perPage = 500;
  let seen = 0;
  for (let page = 1; seen < limit; page++) {
    const { ids } = ctx.store.listIds('return_packages', { ...filters, sort, page, per_page: perPage });
    if (ids.length === 0) return;
    seen += ids.length;
    yield ids;
    if (ids.length < perPage) return;
  }
}

/** One received package with what it takes to report on it. */
interface Receipt {
  pkg: Frozen<ReturnPackage>;
  ret: Frozen<ReturnRecord> | undefined;
  items: PackageLineItem[];
}

/** The packages received on a day, with their returns and line items, in the order they were received. */
async function* receiptsOf(ctx: DomainContext, day: { start: Date; end: Date }): AsyncGenerator<Receipt> {
  const filters: PackageFilters = { status: ['received'], processed_since: day.start.toISOString(), processed_before: day.end.toISOString() };
  for (const ids of packageIds(ctx, filters, 'id')) {
    const packages = await ctx.store.packages.many(ids);
    const returns = await ctx.store.returns.many([...new Set(packages.map((pkg) => pkg.return_id))]);
    const byId = new Map(returns.map((r) => [r.id, r]));
    for (const pkg of packages) yield { pkg, ret: byId.get(pkg.return_id), items: await lineItemsOf(ctx.store.tables, pkg.id) };
  }
}

function packageSummary(pkg: Frozen<ReturnPackage>): DockDayPackage {
  return {
    account_id: pkg.account_id,
    package_id: pkg.id,
    tracking_number: pkg.tracking_number,
    status: pkg.status,
    arrived_at: pkg.actual_arrival,
    updated_at: pkg.updated_at,
  };
}

/**
 * Whether `pkg` closed its return: no other package of the return is still to come (neither received
 * nor cancelled) and none was received after it. Only then is a line the return still lacks short:
 * a return sent in two parcels is whole once the second arrives, and its first parcel is no partial
 * receipt. The return's packages are a few records of the `return_id` index.
 */
async function closesItsReturn(tables: ReadTables, pkg: Frozen<ReturnPackage>): Promise<boolean> {
  const siblings = await tables.return_packages.ofReturn(pkg.return_id);
  const later = (other: Frozen<ReturnPackage>) =>
    (other.processed_at ?? '') > (pkg.processed_at ?? '') || ((other.processed_at ?? '') === (pkg.processed_at ?? '') && other.id > pkg.id);
  return siblings.every((other) => other.id === pkg.id || other.status === 'cancelled' || (other.status === 'received' && !later(other)));
}

/**
 * Received lines a supervisor should see: not on the return, more than the return line's quantity in
 * this package, or fewer than the return line's quantity across its parcels (a partial receipt, a
 * line with nothing received too): the units the return still lacks (its line's `unreceived_quantity`,
 * recounted at every receipt), shown on the package that closed the return (closesItsReturn). Units
 * are the sum of the line items' quantities per return line, whether a line item holds one unit or several.
 */
async function reviewOf(tables: ReadTables, { pkg, ret, items }: Receipt): Promise<DockDayReview[]> {
  const out: DockDayReview[] = [];
  const receivedByLine = new Map<number, number>();
  for (const item of items) {
    if (item.return_line_item_id === null) {
      out.push({
        ...packageSummary(pkg),
        kind: 'unexpected_item',
        item: item.merchant_sku ?? item.name ?? item.barcode ?? 'unnamed item',
        expected: 0,
        received: item.quantity,
      });
    } else {
      receivedByLine.set(item.return_line_item_id, (receivedByLine.get(item.return_line_item_id) ?? 0) + item.quantity);
    }
  }
  for (const [lineId, received] of receivedByLine) {
    const line = ret?.return_line_items.find((l) => l.id === lineId);
    if (line && received > line.quantity)
      out.push({ ...packageSummary(pkg), kind: 'over_receipt', item: line.merchant_sku || line.name, expected: line.quantity, received });
  }
  const lacking = (ret?.return_line_items ?? []).filter((line) => line.unreceived_quantity > 0);
  if (lacking.length > 0 && (await closesItsReturn(tables, pkg))) {
    for (const line of lacking)
      out.push({
        ...packageSummary(pkg),
        kind: 'short_receipt',
        item: line.merchant_sku || line.name,
        expected: line.quantity,
        received: line.quantity - line.unreceived_quantity,
      });
  }
  return out;
}

/** Where the day's received units went: by disposition, by bin (with the puts confirmed) and the overrides by worker. */
class DispositionTally {
  readonly perDisposition = new Map<Disposition, { units: number; overridden: number }>(DISPOSITIONS.map((d) => [d, { units: 0, overridden: 0 }]));
  withoutDisposition = 0;
  /** By the bin in upper case: bins compare without regard to case. */
  readonly bins = new Map<string, { bin: string; units: number; put_confirmed: number; dispositions: Set<Disposition> }>();
  readonly overrides = new Map<number | null, DockDayOverride[]>();

  add({ pkg, items }: Receipt): void {
    for (const stored of items) {
      // Records from before dispositions have none of the fields.
      const item = {
        ...stored,
        disposition: stored.disposition ?? null,
        bin: stored.bin ?? null,
        unit_id: stored.unit_id ?? null,
        put_confirmed_at: stored.put_confirmed_at ?? null,
      };
      if (item.disposition === null) {
        this.withoutDisposition += item.quantity;
        continue;
      }
      const entry = this.perDisposition.get(item.disposition);
      if (entry) {
        entry.units += item.quantity;
        if (item.disposition_source === 'override') entry.overridden += item.quantity;
      }
      if (item.bin !== null) {
        const key = item.bin.toUpperCase();
        const bin = this.bins.get(key) ?? { bin: item.bin, units: 0, put_confirmed: 0, dispositions: new Set<Disposition>() };
        bin.units += item.quantity;
        if (item.put_confirmed_at !== null) bin.put_confirmed += item.quantity;
        bin.dispositions.add(item.disposition);
        this.bins.set(key, bin);
      }
      const override = item.disposition_override;
      if (item.disposition_source === 'override' && override) {
        const list = this.overrides.get(override.by) ?? [];
        list.push({
          account_id: pkg.account_id,
          package_id: pkg.id,
          tracking_number: pkg.tracking_number,
          line_item_id: item.id,
          unit_id: item.unit_id,
          item: item.merchant_sku ?? item.name ?? item.barcode ?? 'unnamed item',
          disposition: item.disposition,
          reason: override.reason,
          at: override.at,
        });
        this.overrides.set(override.by, list);
      }
    }
  }

  answer(
    names: ReadonlyMap<number, string>,
  ): Pick<DockDay, 'per_disposition' | 'units_without_disposition' | 'per_bin' | 'per_bin_total' | 'overrides_per_worker'> {
    const bins: DockDayBin[] = [...this.bins.values()]
      .map((b) => ({ bin: b.bin, units: b.units, put_confirmed: b.put_confirmed, dispositions: DISPOSITIONS.filter((d) => b.dispositions.has(d)) }))
      .sort((a, b) => b.units - a.units || a.bin.localeCompare(b.bin));
    const workers: DockDayOverrideWorker[] = [...this.overrides]
      .map(([id, list]) => ({
        operator_id: id,
        name: id === null ? 'No worker named' : (names.get(id) ?? `Worker ${id}`),
        overrides: list.length,
        latest: list.sort((a, b) => b.at.localeCompare(a.at)).slice(0, DOCK_DAY_OVERRIDE_REASONS),
      }))
      .sort((a, b) => b.overrides - a.overrides || a.name.localeCompare(b.name));
    return {
      per_disposition: DISPOSITIONS.map((disposition) => ({ disposition, ...(this.perDisposition.get(disposition) ?? { units: 0, overridden: 0 }) })),
      units_without_disposition: this.withoutDisposition,
      per_bin: bins.slice(0, DOCK_DAY_LIST_LIMIT),
      per_bin_total: bins.length,
      overrides_per_worker: workers,
    };
  }
}

/** Packages in `exception` now, most recently changed first. */
async function exceptionsNow(ctx: DomainContext): Promise<{ list: DockDayPackage[]; total: number }> {
  const { ids, total } = ctx.store.listIds('return_packages', { status: ['exception'], sort: '-updated_at', per_page: DOCK_DAY_LIST_LIMIT });
  return { list: (await ctx.store.packages.many(ids)).map(packageSummary), total };
}

/** Parcels at the dock (delivered, not received) since before `cutoff`, oldest first. */
async function waitingSince(ctx: DomainContext, cutoff: string): Promise<{ list: DockDayPackage[]; total: number }> {
  const waiting: DockDayPackage[] = [];
  for (const ids of packageIds(ctx, { status: ['delivered'] }, 'updated_at')) {
    for (const pkg of await ctx.store.packages.many(ids)) {
      // A parcel is at the dock from its recorded arrival, else from when it was marked delivered.
      const since = pkg.actual_arrival ?? pkg.updated_at;
      if (since < cutoff) waiting.push(packageSummary(pkg));
    }
  }
  waiting.sort((a, b) => (a.arrived_at ?? a.updated_at).localeCompare(b.arrived_at ?? b.updated_at));
  return { list: waiting.slice(0, DOCK_DAY_LIST_LIMIT), total: waiting.length };
}

/** `GET /api/v1/station/dock-day`. */
export async function dockDay(ctx: DomainContext, query: { date?: string | undefined; waiting_minutes: number }): Promise<DockDay> {
  const now = new Date(ctx.clock.now());
  const day = localDay(query.date, now);
  const names = new Map((await ctx.store.operators.all()).map((op) => [op.id, op.name]));
  const perHour = Array.from({ length: 24 }, () => 0);
  const workers = new Map<number | null, { packages: number; units: number }>();
  const reviews: DockDayReview[][] = [];
  const tally = new DispositionTally();
  let packages = 0;
  let units = 0;
  for await (const receipt of receiptsOf(ctx, day)) {
    const received = receipt.items.reduce((sum, item) => sum + item.quantity, 0);
    packages += 1;
    units += received;
    if (receipt.pkg.processed_at) {
      const hour = new Date(receipt.pkg.processed_at).getHours();
      perHour[hour] = (perHour[hour] ?? 0) + 1;
    }
    const worker = workers.get(receipt.pkg.processor_id) ?? { packages: 0, units: 0 };
    worker.packages += 1;
    worker.units += received;
    workers.set(receipt.pkg.processor_id, worker);
    reviews.push(await reviewOf(ctx.store.tables, receipt));
    tally.add(receipt);
  }
  // The latest receipt first: what a supervisor has not seen yet heads the list.
  const review = reviews.reverse().flat();
  const exceptions = await exceptionsNow(ctx);
  const waiting = await waitingSince(ctx, new Date(now.getTime() - query.waiting_minutes * 60_000).toISOString());
  return {
    date: day.date,
    time_zone: stationTimeZone(),
    received_per_hour: perHour,
    received_packages: packages,
    received_units: units,
    per_worker: [...workers]
      .map(([id, w]) => ({ operator_id: id, name: id === null ? 'No worker signed in' : (names.get(id) ?? `Worker ${id}`), ...w }))
      .sort((a, b) => b.packages - a.packages || a.name.localeCompare(b.name)),
    exceptions: exceptions.list,
    exceptions_total: exceptions.total,
    review: review.slice(0, DOCK_DAY_LIST_LIMIT),
    review_total: review.length,
    waiting: waiting.list,
    waiting_total: waiting.total,
    waiting_minutes: query.waiting_minutes,
    ...tally.answer(names),
    sync: ctx.sync ? ctx.sync.status() : SYNC_DISABLED,
  };
}

/**
 * `GET /api/v1/station/dock-day/receipts.csv`: one row per received line item of the day (a package
 * received with no lines gets one row without an item), with its disposition, bin, unit id and when
 * its put was confirmed (empty when not). Cells that a spreadsheet would run as a
 * formula (= + - @, tab, carriage return) are prefixed with a quote by csv-stringify's `escape_formulas`.
 */
export async function dockDayReceiptsCsv(ctx: DomainContext, query: { date?: string | undefined }): Promise<{ date: string; csv: string }> {
  const day = localDay(query.date, new Date(ctx.clock.now()));
  const names = new Map((await ctx.store.operators.all()).map((op) => [op.id, op.name]));
  const rows: unknown[][] = [];
  for await (const { pkg, items } of receiptsOf(ctx, day)) {
    const head = [
      pkg.processed_at,
      pkg.account_id,
      pkg.id,
      pkg.tracking_number,
      pkg.return_id,
      pkg.processor_id === null ? '' : (names.get(pkg.processor_id) ?? `Worker ${pkg.processor_id}`),
    ];
    if (items.length === 0) rows.push([...head, '', '', 0, '', '', '', '', '', '', '', '']);
    for (const item of items) {
      rows.push([
        ...head,
        item.merchant_sku ?? '',
        item.name ?? '',
        item.quantity,
        item.condition ?? '',
        item.defective ? 'yes' : 'no',
        item.notes ?? '',
        item.tags.join(' '),
        item.disposition ?? '',
        item.bin ?? '',
        item.unit_id ?? '',
        item.put_confirmed_at ?? '',
      ]);
    }
  }
  return {
    date: day.date,
    csv: stringify(rows, { header: true, columns: [...RECEIPT_CSV_COLUMNS], escape_formulas: true, record_delimiter: 'windows', bom: true }),
  };
}
