import { type ReadTables, type PullCursor, type StationStore, type SyncAccountState } from '../store/index.ts';

/** One account's sync state (pull cursors, pause, media support), as stored or as before any sync. */

const emptyCursor = (): PullCursor => ({ updated_at: null, page: 1, round_since: null, round_max: null, seen: 0, total: null });

export function initialAccountState(accountId: number): SyncAccountState {
  return { account_id: accountId, packages: emptyCursor(), returns: emptyCursor(), paused: null, last_success_at: null };
}

export async function accountState(t: Pick<ReadTables, 'sync_state'>, accountId: number): Promise<SyncAccountState> {
  return (await t.sync_state.get(accountId)) ?? initialAccountState(accountId);
}

/** Writes a change to one account's sync state in its own store write. */
export async function updateAccountState(store: StationStore, accountId: number, change: Partial<Omit<SyncAccountState, 'account_id'>>): Promise<void> {
  await store.write(async (t) => {
    await t.sync_state.put({ ...(await accountState(t, accountId)), ...change });
  });
}
