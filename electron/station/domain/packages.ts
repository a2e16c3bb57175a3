import { allowedMoves, canMove, type PackageStatus } from '#shared/package-status.ts';
import type { ReturnPackageCreate, ReturnPackageUpdate } from '#shared/api/return-packages.ts';
import { RETURN_PACKAGE_FIELDS } from '#shared/fields/return-package.ts';
import { blankValues } from '#shared/fields/table.ts';
import { fail } from '../errors.ts';
import { type ListResult, type PackageFilters, type PackageSort, type ReturnPackage, type BoundTables, type ReadTables, trackingKey } from '../store/index.ts';
import { logChange } from './change-log.ts';
import { advance } from './clock.ts';
import type { DomainContext } from './context.ts';
import { assertReceivable } from './dispositions.ts';
import { assertSerialsRecorded } from './serials.ts';
import { recountReturn } from './receipts.ts';
import { checkReferences, invalidReference } from './references.ts';
import { settingsIn } from './station-settings.ts';
import { learnSkuWeightsFrom } from './weight-check.ts';

/** The values of a new package before its create's: null for each that may be null. */
const NEW_PACKAGE_VALUES = blankValues(RETURN_PACKAGE_FIELDS);

/** A package of the account, or 404 (another account's package is as unknown as a missing one). */
export async function packageOfAccount(tables: ReadTables, accountId: number, id: number): Promise<ReturnPackage> {
  const pkg = await tables.return_packages.get(id);
  if (!pkg || pkg.account_id !== accountId) throw fail('NOT_FOUND', `No return package ${id} in account ${accountId}.`);
  return pkg;
}

async function assertTrackingNumberFree(t: BoundTables, accountId: number, trackingNumber: string, exceptId?: number): Promise<void> {
  // Its id alone: the package itself is not needed (the store answers it from memory when it can).
  const existingId = await t.return_packages.idWithTracking(accountId, trackingKey(trackingNumber));
  if (existingId !== undefined && existingId !== exceptId) {
    throw fail('DUPLICATE_TRACKING_NUMBER', `Tracking number ${trackingNumber} is already used by return package ${existingId}.`, {
      existing_id: existingId,
    });
  }
}

/** The fields a move to `received` or `delivered` also sets (docs/api-reference.md, Return packages). */
function arrivalEffects(
  pkg: Readonly<ReturnPackage>,
  to: PackageStatus,
  now: string,
  given: { actual_arrival?: string | null; processor_id?: number | null; processed_at?: string | null },
): Partial<ReturnPackage> {
  if (to === 'received') {
    return {
      actual_arrival: given.actual_arrival ?? pkg.actual_arrival ?? now,
      // A site's station received it earlier (it sends when): that time, not the time it arrived here.
      processed_at: given.processed_at ?? now,
      processor_id: given.processor_id ?? pkg.processor_id ?? null,
    };
  }
  // A parcel at the dock has arrived: record when, unless the body or an earlier move said so.
  if (to === 'delivered') return { actual_arrival: given.actual_arrival ?? pkg.actual_arrival ?? now };
  return {};
}

export async function createPackage(t: BoundTables, now: string, accountId: number, input: ReturnPackageCreate): Promise<ReturnPackage> {
  // Once the engine runs this write (most creates of a shared write), the return is read from its
  // memory without a request; else (a write's first request, a cold return) through the table.
  const ret = t.peek('returns', input.return_id) ?? (await t.returns.get(input.return_id));
  if (!ret || ret.account_id !== accountId) throw invalidReference('return_id', `No return ${input.return_id} in account ${accountId}.`);
  await checkReferences(t, input);
  await assertTrackingNumberFree(t, accountId, input.tracking_number);
  // Every value its table names: those the create gave, null for the rest (shared/fields/return-package.ts).
  const draft: Omit<ReturnPackage, 'id'> = {
    ...NEW_PACKAGE_VALUES,
    ...input,
    account_id: accountId,
    tracking_key: trackingKey(input.tracking_number),
    line_items_count: 0,
    created_at: now,
    updated_at: now,
  };
  const id = await t.return_packages.add(draft as ReturnPackage);
  let pkg: ReturnPackage = { ...draft, id };
  const effects = arrivalEffects(pkg, input.status, now, {});
  if (Object.keys(effects).length > 0) {
    pkg = { ...pkg, ...effects };
    await t.return_packages.put(pkg);
  }
  await logChange(t, { account_id: accountId, resource: 'return_package', resource_id: id, action: 'created', data: pkg, at: now });
  if (pkg.status === 'received') await recountReturn(t, pkg.return_id, now);
  return pkg;
}

/** `packageOfAccount` inside a write: from the engine's memory without a request once the engine runs it (`t.peek`). */
async function packageInWrite(t: BoundTables, accountId: number, id: number): Promise<Readonly<ReturnPackage>> {
  const peeked = t.peek('return_packages', id);
  return peeked?.account_id === accountId ? peeked : packageOfAccount(t, accountId, id);
}

export async function updatePackage(t: BoundTables, now: string, accountId: number, id: number, patch: ReturnPackageUpdate): Promise<Readonly<ReturnPackage>> {
  const pkg = await packageInWrite(t, accountId, id);
  const to = patch.status ?? pkg.status;
  if (to !== pkg.status && !canMove(pkg.status, to)) {
    throw fail('INVALID_STATUS_TRANSITION', `A ${pkg.status} return package cannot become ${to}.`, {
      from: pkg.status,
      to,
      allowed: [...allowedMoves(pkg.status)],
    });
  }
  await checkReferences(t, patch);
  if (to === 'received' && pkg.status !== 'received') {
    const items = await t.package_line_items.ofPackage(id);
    assertReceivable(pkg, items);
    // A receipt made at another station of the site (it says when it was processed) was checked there.
    if (patch.processed_at === undefined) await assertSerialsRecorded(t, pkg, items);
  }
  let next: ReturnPackage = { ...pkg, ...patch, status: to };
  if (patch.tracking_number !== undefined) next.tracking_key = trackingKey(patch.tracking_number);
  if (to === 'cancelled') next.tracking_key = null; // frees the tracking number for a new package
  if (to !== pkg.status) next = { ...next, ...arrivalEffects(pkg, to, now, patch) };
  // Who received it, by name: the receipt keeps it for the site's other stations (given by one of them, or this station's operator).
  if (patch.processor_name === undefined && next.processor_id !== pkg.processor_id)
    next.processor_name = next.processor_id === null ? null : ((await t.operators.get(next.processor_id))?.name ?? null);
  if (next.tracking_key !== null && next.tracking_key !== pkg.tracking_key) await assertTrackingNumberFree(t, accountId, next.tracking_number, id);
  if (Object.entries(next).every(([key, value]) => JSON.stringify(value) === JSON.stringify(pkg[key as keyof ReturnPackage]))) return pkg;
  next.updated_at = advance(pkg.updated_at, now);
  await t.return_packages.put(next);
  await logChange(t, { account_id: accountId, resource: 'return_package', resource_id: id, action: 'updated', data: next, at: now });
  if (to === 'received' && pkg.status !== 'received') {
    await recountReturn(t, next.return_id, now);
    await learnSkuWeightsFrom(t, now, next, (await settingsIn(t)).weight_check);
  }
  return next;
}

/**
 * Marks a package changed after one of its line items or media files changed: its `updated_at`
 * moves forward and live views hear of it; a received package's return is recounted.
 */
export async function touchPackage(t: BoundTables, pkg: ReturnPackage, now: string, recount: boolean, lineItemsDelta = 0): Promise<void> {
  const touched: ReturnPackage = { ...pkg, updated_at: advance(pkg.updated_at, now) };
  if (lineItemsDelta !== 0) {
    const before = pkg.line_items_count ?? (await t.package_line_items.countOfPackage(pkg.id)) - lineItemsDelta;
    touched.line_items_count = before + lineItemsDelta;
  }
  await t.return_packages.put(touched);
  await logChange(t, { account_id: pkg.account_id, resource: 'return_package', resource_id: pkg.id, action: 'updated', data: touched, at: now });
  if (recount && pkg.status === 'received') await recountReturn(t, pkg.return_id, now);
}

/** One page of packages: their ids, in order, and the count of every match, from SQLite's indexes (store/list-queries.ts). */
export function findPackages(ctx: DomainContext, filters: PackageFilters, sort: PackageSort, page: number, perPage: number): ListResult {
  return ctx.store.listIds('return_packages', { ...filters, sort, page, per_page: perPage });
}
