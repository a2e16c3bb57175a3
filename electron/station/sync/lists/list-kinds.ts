import type { BoundTables, ReturnRecord, SyncIssue } from '../../store/index.ts';
import { applyUpstreamPackage, applyUpstreamReturn, isStored, MissingReturnError, sameReturn } from '../links/apply-upstream.ts';
import { linkOf, linkOfUpstream } from '../links/upstream-links.ts';
import type { RoundReport, SyncContext } from '../sync-context.ts';
import type { RequestPriority } from '../upstream/rate-budget.ts';
import { readUpstreamPackage, readUpstreamReturn, type UpstreamPackage, type UpstreamReturn } from '../upstream/upstream-records.ts';
import { continuePass, type ListKind, readNewest } from './list-scan.ts';
import { clearIssues } from './list-state.ts';

/*
 * The upstream's two lists as sync reads them: where each is, how its records are read and stored
 * (a package's return first), which records are still open work at the dock. Pull reads them every
 * round; push reads their newest end to find what a create whose answer was lost made.
 */
/** Local returns whose create's answer was lost: an upstream return of the same content is theirs. */
async function lostReturnCreates(t: BoundTables, accountId: number): Promise<ReturnRecord[]> {
  const slots = (await t.outbox.ofAccount(accountId)).filter((slot) => slot.kind === 'return' && slot.create_attempted_at !== null);
  const records: ReturnRecord[] = [];
  for (const slot of slots) {
    const record = await t.returns.get(slot.local_id);
    if (record && !(await linkOf(t, 'return', record.id))) records.push(record);
  }
  return records;
}

export const RETURNS: ListKind<UpstreamReturn> = {
  list: 'returns',
  syncKind: 'return',
  url: (sc, accountId) => sc.client.accountReturnsUrl(accountId),
  read: readUpstreamReturn,
  async store(t, accountId, records, now) {
    const issues: Array<Omit<SyncIssue, 'at'>> = [];
    let claimants: ReturnRecord[] | null = null;
    for (const u of records) {
      if (!(await linkOfUpstream(t, accountId, 'return', u.id))) claimants ??= await lostReturnCreates(t, accountId);
      const pending = claimants ?? [];
      await applyUpstreamReturn(t, accountId, u, now, async () => {
        const index = pending.findIndex((local) => sameReturn(local, u));
        return index < 0 ? undefined : pending.splice(index, 1)[0];
      });
      await clearIssues(t, accountId, 'return', u.id);
      for (const note of u.notes_for_person ?? [])
        issues.push({ kind: 'return', upstream_id: u.id, stored: true, message: `upstream return ${u.id}: ${note}` });
    }
    return issues;
  },
  isOpen: () => false,
  updatedAt: (u) => u.updated_at,
};

/** Before a page of packages is stored: the returns it names that the station lacks, from the newest end of the returns list. */
async function ensureReturns(sc: SyncContext, accountId: number, records: UpstreamPackage[], report: RoundReport, priority: RequestPriority): Promise<void> {
  let missing = false;
  for (const u of records) {
    if (missing) break;
    missing =
      !(await linkOfUpstream(sc.store.tables, accountId, 'return', u.return_id)) && !(await linkOfUpstream(sc.store.tables, accountId, 'return_package', u.id));
  }
  if (!missing) return;
  const outcome = await readNewest(sc, RETURNS, accountId, report, priority);
  if (outcome === 'unknown-order') await continuePass(sc, RETURNS, accountId, report, { maxPages: Number.POSITIVE_INFINITY, priority });
}

export const PACKAGES: ListKind<UpstreamPackage> = {
  list: 'packages',
  syncKind: 'return_package',
  url: (sc, accountId) => sc.client.packagesUrl(accountId),
  read: readUpstreamPackage,
  prepare: ensureReturns,
  async store(t, accountId, records, now) {
    const issues: Array<Omit<SyncIssue, 'at'>> = [];
    for (const u of records) {
      const issue = (stored: boolean, message: string) =>
        issues.push({ kind: 'return_package', upstream_id: u.id, stored, message: `upstream package ${u.id}: ${message}` });
      try {
        const applied = await applyUpstreamPackage(t, accountId, u, now);
        if (isStored(applied)) await clearIssues(t, accountId, 'return_package', u.id);
        else issue(false, applied.notStored);
      } catch (error) {
        if (!(error instanceof MissingReturnError)) throw error;
        issue(false, `its return ${u.return_id} was not found upstream: the package is not stored`);
      }
      for (const note of u.notes_for_person ?? []) issue(true, note);
    }
    return issues;
  },
  isOpen: (u) => u.status !== 'received' && u.status !== 'cancelled',
  updatedAt: (u) => u.updated_at,
};
