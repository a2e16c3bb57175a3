import { create } from 'zustand';
import type { ReturnPackageListItem } from '#shared/api/return-packages.ts';
import type { ReturnRecord, ReturnStatus } from '#shared/api/returns.ts';
import type { PackageStatus } from '#shared/package-status.ts';
import { describeError } from '../api/describe-error.ts';
import { api } from '../api/station-api.ts';

/*
 * The package and return lists: status filters, search (tracking number, email, SKU, return id) and
 * pages, per account. `reload` is also what live events call, so an open list follows changes made
 * by integrations and other screens without a page reload.
 */

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

/** A list's account choice meaning every account (ids start at 1); the returns list offers it. */
export const ALL_ACCOUNTS = 0;
const EMPTY_META: Meta = { current_page: 1, total_pages: 0, total_count: 0 };

function single<R>(rows: R[]): Page<R> {
  return { rows, meta: { current_page: 1, total_pages: rows.length ? 1 : 0, total_count: rows.length } };
}

async function searchPackages(accountId: number, search: string, statuses: PackageStatus[], page: number): Promise<Page<ReturnPackageListItem>> {
  const client = api();
  const answer = await client.lookup(search);
  let rows: ReturnPackageListItem[] = answer.packages.filter((p) => p.account_id === accountId);
  if (rows.length === 0) {
    // An email, SKU or return id: the packages of the matching returns.
    const returnIds = answer.returns.filter((r) => r.account_id === accountId).map((r) => r.return.id).slice(0, 20);
    const lists = await Promise.all(returnIds.map((id) => client.listPackages(accountId, { return_id: id, per_page: 100 })));
    rows = lists.flatMap((l) => l.data);
  }
  if (rows.length === 0) {
    // Nothing exact: tracking numbers that start with it ("1Z99" finds 1Z999…), from the store's index.
    const a = await client.listPackages(accountId, { tracking_number_prefix: search, status: statuses, page, per_page: PER_PAGE, sort: '-updated_at' });
    if (a.data.length > 0) return { rows: a.data, meta: a.meta };
  }
  return single(statuses.length ? rows.filter((r) => statuses.includes(r.status)) : rows);
}

type Page<R> = { rows: R[]; meta: Meta };

/** A list store over one way of fetching a page: the query, its answer, and reloads. */
function createListStore<S extends string, R>(fetchPage: (accountId: number, query: ListQuery<S>) => Promise<Page<R>>) {
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

export const usePackageList = createListStore<PackageStatus, ReturnPackageListItem>(async (accountId, { statuses, search, page }) =>
  search
    ? await searchPackages(accountId, search, statuses, page)
    : api()
        .listPackages(accountId, { status: statuses, page, per_page: PER_PAGE, sort: '-updated_at' })
        .then((a) => ({ rows: a.data, meta: a.meta })),
);

export const useReturnList = createListStore<ReturnStatus, ReturnRecord>(async (accountId, { statuses, search, page }) => {
  if (accountId === ALL_ACCOUNTS) {
    // Every account's returns (the station token's GET /returns), searched by email prefix.
    const a = await api().listReturns({ status: statuses, page, per_page: PER_PAGE, ...(search ? { email_prefix: search } : {}) });
    return { rows: a.data, meta: a.meta };
  }
  if (search.includes('@')) {
    const a = await api().listAccountReturns(accountId, { email: search, status: statuses, page, per_page: PER_PAGE });
    if (a.data.length > 0) return { rows: a.data, meta: a.meta };
  }
  if (search) {
    const answer = await api().lookup(search);
    const rows = answer.returns.filter((r) => r.account_id === accountId).map((r) => r.return);
    if (rows.length > 0) return single(statuses.length ? rows.filter((r) => statuses.includes(r.status)) : rows);
    // Nothing exact: emails that start with it ("chloe" finds chloe.martin@…), from the store's index.
    const a = await api().listAccountReturns(accountId, { email_prefix: search, status: statuses, page, per_page: PER_PAGE });
    return { rows: a.data, meta: a.meta };
  }
  const a = await api().listAccountReturns(accountId, { status: statuses, page, per_page: PER_PAGE });
  return { rows: a.data, meta: a.meta };
});
