import type { BoundTables, ReadTables, SyncAccountState, SyncIssue, SyncKind, UpstreamListState } from '../../store/index.ts';
import { accountState } from '../account-state.ts';

/*
 * What the station has found out about one account's upstream lists (records.ts, UpstreamListState),
 * and the records it could not store: read and written inside the caller's store write.
 */

export type ListName = 'packages' | 'returns';

export function initialListState(): UpstreamListState {
  return {
    page_size: null,
    order: null,
    total: null,
    max_id: null,
    pass: null,
    passed_at: null,
    settled_at: null,
    rolling_page: 1,
    open_pages: [],
    changes: 'unknown',
    changes_checked_at: null,
    contradiction: null,
  };
}

export function listsOf(state: SyncAccountState): NonNullable<SyncAccountState['lists']> {
  return state.lists ?? { packages: initialListState(), returns: initialListState() };
}

export async function listState(t: Pick<ReadTables, 'sync_state'>, accountId: number, list: ListName): Promise<UpstreamListState> {
  return listsOf(await accountState(t, accountId))[list];
}

/** Changes one list's state inside the caller's write. */
export async function updateListState(
  t: BoundTables,
  accountId: number,
  list: ListName,
  change: (state: UpstreamListState) => UpstreamListState,
): Promise<UpstreamListState> {
  const state = await accountState(t, accountId);
  const lists = listsOf(state);
  const next = change(lists[list]);
  await t.sync_state.put({ ...state, lists: { ...lists, [list]: next } });
  return next;
}

/** At most this many issues are kept per account (the oldest go first). */
const MAX_ISSUES = 500;

/** Writes down what a person should see, each (kind, upstream id, message) once. */
export async function noteIssues(t: BoundTables, accountId: number, issues: ReadonlyArray<Omit<SyncIssue, 'at'>>, now: string): Promise<void> {
  if (issues.length === 0) return;
  const state = await accountState(t, accountId);
  const kept = state.issues ?? [];
  const seen = new Set(kept.map(issueKey));
  const added = issues.filter((issue) => !seen.has(issueKey(issue)) && seen.add(issueKey(issue))).map((issue) => ({ ...issue, at: now }));
  if (added.length === 0) return;
  await t.sync_state.put({ ...state, issues: [...kept, ...added].slice(-MAX_ISSUES) });
}

/** Forgets the issues of an upstream record that was stored after all. */
export async function clearIssues(t: BoundTables, accountId: number, kind: SyncKind, upstreamId: number): Promise<void> {
  const state = await accountState(t, accountId);
  if (!state.issues?.some((issue) => issue.kind === kind && issue.upstream_id === upstreamId)) return;
  await t.sync_state.put({ ...state, issues: state.issues.filter((issue) => !(issue.kind === kind && issue.upstream_id === upstreamId)) });
}

function issueKey(issue: Pick<SyncIssue, 'kind' | 'upstream_id' | 'message'>): string {
  return `${issue.kind}:${issue.upstream_id ?? ''}:${issue.message}`;
}

/** Upstream ids of records the station did not store (they are not new on the next read). */
export function unstoredIds(state: SyncAccountState, kind: SyncKind): Set<number> {
  return new Set(
    (state.issues ?? []).filter((issue) => issue.kind === kind && !issue.stored && issue.upstream_id !== null).map((issue) => issue.upstream_id as number),
  );
}
