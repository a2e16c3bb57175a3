import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { ApiClient } from '#shared/api/client.ts';
import type { StationPackageListItem } from '#shared/api/return-packages.ts';
import type { ReturnRecord, ReturnStatus } from '#shared/api/returns.ts';
import type { PackageStatus } from '#shared/package-status.ts';
import { describeError } from '../api/describe-error.ts';
import { pageClient } from '../api/station-api.ts';

/*
 * The package and return lists: status filters, search (tracking number, email, SKU, return id: exact,
 * then any part of it from the station's indexes) and pages, per account or of every account. `reload` is also what live events call, so an open list follows changes made
 * by integrations and other screens without a page reload.
 */

/** What the lists ask of the station. */
export type ListsClient = Pick<ApiClient, 'lookup' | 'listStationPackages' | 'listReturns'>;

export interface ListQuery<S extends string> {
  accountId: number | null;
  statuses: S[];
  search: string;
  page: number;
}

interface Meta {
  current_page: number;
  total_pages: number;
  total_count: number;
  /** The count is a lower bound: a search that many records match (docs/api-decisions.md, List search). */
  total_count_lower_bound?: true;
}

export interface ListState<S extends string, R> {
  query: ListQuery<S>;
  rows: R[];
  meta: Meta;
  loading: boolean;
  error: string | null;
  setQuery(change: Partial<ListQuery<S>>): void;
  reload(): Promise<void>;
}

const PER_PAGE = 25;

/** A list's account choice meaning every account (ids start at 1). */
export const ALL_ACCOUNTS = 0;
const EMPTY_META: Meta = { current_page: 1, total_pages: 0, total_count: 0 };

function single<R>(rows: R[]): Page<R> {
  return { rows, meta: { current_page: 1, total_pages: rows.length ? 1 : 0, total_count: rows.length } };
}

/** The account filter of a list: one account, or none for every account (the station token sees all). */
function scopeOf(accountId: number): { account_id?: number } {
  return accountId === ALL_ACCOUNTS ? {} : { account_id: accountId };
}

/** Returns whose email, then whose SKU, starts with the text ("chloe", "WBN"), from the store's indexes. */
async function returnsContaining(client: ListsClient, accountId: number, search: string, query: { status?: ReturnStatus[]; page: number; per_page: number }) {
  const byEmail = await client.listReturns({ ...scopeOf(accountId), ...query, email_contains: search });
  return byEmail.data.length > 0 ? byEmail : client.listReturns({ ...scopeOf(accountId), ...query, sku_contains: search });
}

/**
 * A search of the package list, most exact first: the scan lookup (a tracking number, or a return's
 * id, email or SKU: that return's packages); else tracking numbers that contain the text; else the
 * packages of returns whose email or SKU contains it (1–2 characters: starts with it).
 */
async function searchPackages(
  client: ListsClient,
  accountId: number,
  search: string,
  statuses: PackageStatus[],
  page: number,
): Promise<Page<StationPackageListItem>> {
  const inScope = (account: number) => accountId === ALL_ACCOUNTS || account === accountId;
  const packagesOf = async (returns: Array<{ account_id: number; id: number }>) =>
    (await Promise.all(returns.slice(0, 20).map((r) => client.listStationPackages({ account_id: r.account_id, return_id: r.id, per_page: 100 })))).flatMap(
      (l) => l.data,
    );
  const filtered = (rows: StationPackageListItem[]) => single(statuses.length ? rows.filter((r) => statuses.includes(r.status)) : rows);

  const answer = await client.lookup(search);
  const found = answer.packages.filter((p) => inScope(p.account_id));
  if (found.length > 0) return filtered(found);
  const exact = answer.returns.filter((r) => inScope(r.account_id)).map((r) => ({ account_id: r.account_id, id: r.return.id }));
  if (exact.length > 0) return filtered(await packagesOf(exact));
  const byTracking = await client.listStationPackages({
    ...scopeOf(accountId),
    tracking_number_contains: search,
    status: statuses,
    page,
    per_page: PER_PAGE,
    sort: '-updated_at',
  });
  if (byTracking.data.length > 0) return { rows: byTracking.data, meta: byTracking.meta };
  const returns = await returnsContaining(client, accountId, search, { page: 1, per_page: 20 });
  return filtered(await packagesOf(returns.data));
}

type Page<R> = { rows: R[]; meta: Meta };

/** A list store over one way of fetching a page: the query, its answer, and reloads. */
function createListStore<S extends string, R>(
  fetchPage: (accountId: number, query: ListQuery<S>) => Promise<Page<R>>,
): UseBoundStore<StoreApi<ListState<S, R>>> {
  return create<ListState<S, R>>()((set, get) => ({
    query: { accountId: null, statuses: [], search: '', page: 1 },
    rows: [],
    meta: EMPTY_META,
    loading: false,
    error: null,
    setQuery(change) {
      set({ query: { ...get().query, ...change } });
      void get().reload();
    },
    async reload() {
      const query = get().query;
      if (query.accountId === null) return;
      set({ loading: true });
      try {
        const result = await fetchPage(query.accountId, { ...query, search: query.search.trim() });
        // Drop an answer that a newer query overtook.
        const now = get().query;
        if (now.accountId === query.accountId && now.search === query.search && now.page === query.page) set({ ...result, loading: false, error: null });
      } catch (error) {
        set({ loading: false, error: describeError(error) });
      }
    },
  }));
}

/** The package list of the dock: every package of one account or of all (`ALL_ACCOUNTS`), with its account. */
export function createPackageListStore(client: ListsClient): UseBoundStore<StoreApi<ListState<PackageStatus, StationPackageListItem>>> {
  return createListStore<PackageStatus, StationPackageListItem>(async (accountId, { statuses, search, page }) => {
    if (search) return searchPackages(client, accountId, search, statuses, page);
    const a = await client.listStationPackages({ ...scopeOf(accountId), status: statuses, page, per_page: PER_PAGE, sort: '-updated_at' });
    return { rows: a.data, meta: a.meta };
  });
}

/** The returns list. A search, most exact first: an email; the scan lookup (id, email, SKU); emails, then SKUs, that contain the text. */
export function createReturnListStore(client: ListsClient): UseBoundStore<StoreApi<ListState<ReturnStatus, ReturnRecord>>> {
  return createListStore<ReturnStatus, ReturnRecord>(async (accountId, { statuses, search, page }) => {
    const query = { status: statuses, page, per_page: PER_PAGE };
    if (!search) return pageOf(await client.listReturns({ ...scopeOf(accountId), ...query }));
    if (search.includes('@')) {
      const a = await client.listReturns({ ...scopeOf(accountId), ...query, email: search });
      if (a.data.length > 0) return pageOf(a);
    }
    const answer = await client.lookup(search);
    const rows = answer.returns.filter((r) => accountId === ALL_ACCOUNTS || r.account_id === accountId).map((r) => r.return);
    if (rows.length > 0) return single(statuses.length ? rows.filter((r) => statuses.includes(r.status)) : rows);
    return pageOf(await returnsContaining(client, accountId, search, query));
  });
}

/** The page's lists, on the page's client. */
export const usePackageList = createPackageListStore(pageClient);
export const useReturnList = createReturnListStore(pageClient);

function pageOf<R>(answer: { data: R[]; meta: Meta }): Page<R> {
  return { rows: answer.data, meta: answer.meta };
}
