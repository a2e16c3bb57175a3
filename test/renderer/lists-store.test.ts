import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPackage, createReturn, startStation, type TestStation } from '../api/support.ts';
import { ALL_ACCOUNTS, createPackageListStore, createReturnListStore, type ListQuery, type ListState } from '../../renderer/src/lists/lists-store.ts';
import { returnLine } from '../support/manual-return.ts';
import { StationCable } from './station-cable.ts';

/*
 * The package and return lists against a real station, as a dock worker uses them: every account's
 * packages at once, search by what is on the parcel or the return, status filters, and a refused
 * search that says why and keeps the rows on screen.
 */

let ts: TestStation;
const tag = Date.now().toString(36);
const ADA = `ada-${tag}@example.com`;
const SKU = `WBN-${tag}-01`;
const TRACKING_1 = `1ZAB${tag}01`;
const TRACKING_2 = `1ZEF${tag}04`;

beforeAll(async () => {
  ts = await startStation();
  const first = await createReturn(ts.origin, ts.account1, { email: ADA, return_line_items: [returnLine(SKU, 1)] });
  await createPackage(ts.origin, ts.account1, 1, first.id, { tracking_number: TRACKING_1, status: 'delivered' });
  const second = await createReturn(ts.origin, ts.account2, { email: `bob-${tag}@example.com` });
  await createPackage(ts.origin, ts.account2, 2, second.id, { tracking_number: TRACKING_2, status: 'in_transit' });
});
afterAll(async () => {
  await ts.close();
});

/** What the screen does: change the query, then wait for the list to settle. */
async function show<S extends string, R>(list: { getState(): ListState<S, R> }, change: Partial<ListQuery<S>>): Promise<ListState<S, R>> {
  list.getState().setQuery(change);
  await vi.waitFor(() => expect(list.getState().loading).toBe(false));
  return list.getState();
}

describe('the package list', () => {
  it('of all accounts shows both accounts’ packages, each with its account', async () => {
    const list = createPackageListStore(new StationCable(ts).client());
    const state = await show(list, { accountId: ALL_ACCOUNTS });
    expect(state.error).toBeNull();
    expect(state.rows.map((p) => [p.tracking_number, p.account_id]).sort()).toEqual([
      [TRACKING_1, 1],
      [TRACKING_2, 2],
    ]);
    expect(state.meta.total_count).toBe(2);
    // One account: only its package.
    expect((await show(list, { accountId: 2 })).rows.map((p) => p.tracking_number)).toEqual([TRACKING_2]);
  });

  it('finds a package by exact tracking number, tracking-number prefix, the return’s email prefix and SKU prefix', async () => {
    const list = createPackageListStore(new StationCable(ts).client());
    const found = async (search: string) => (await show(list, { accountId: ALL_ACCOUNTS, search })).rows.map((p) => p.tracking_number);
    expect(await found(TRACKING_2)).toEqual([TRACKING_2]);
    expect(await found(`1zab${tag}`)).toEqual([TRACKING_1]);
    expect(await found(`ada-${tag}`)).toEqual([TRACKING_1]);
    expect(await found(`wbn-${tag}`)).toEqual([TRACKING_1]);
    expect(await found(`nothing-${tag}`)).toEqual([]);
  });

  it('applies a status filter', async () => {
    const list = createPackageListStore(new StationCable(ts).client());
    expect((await show(list, { accountId: ALL_ACCOUNTS, statuses: ['in_transit'] })).rows.map((p) => p.tracking_number)).toEqual([TRACKING_2]);
    expect((await show(list, { statuses: ['delivered'] })).rows.map((p) => p.tracking_number)).toEqual([TRACKING_1]);
    expect((await show(list, { statuses: ['received'] })).rows).toEqual([]);
    // With a search too.
    expect((await show(list, { statuses: ['in_transit'], search: `1zab${tag}` })).rows).toEqual([]);
  });

  it('says why a refused search was refused and keeps the last rows', async () => {
    const list = createPackageListStore(new StationCable(ts).client());
    const shown = (await show(list, { accountId: ALL_ACCOUNTS })).rows;
    expect(shown).toHaveLength(2);
    const refused = await show(list, { search: 'x'.repeat(200) });
    expect(refused.error).toBe('Refused by the station (400): Query parameter code: Too big: expected string to have <=128 characters');
    expect(refused.rows).toEqual(shown);
    // The next good search clears the message.
    const again = await show(list, { search: TRACKING_1 });
    expect(again.error).toBeNull();
    expect(again.rows.map((p) => p.tracking_number)).toEqual([TRACKING_1]);
  });
});

describe('the return list', () => {
  it('shows every account’s returns and finds one by email prefix and SKU prefix', async () => {
    const list = createReturnListStore(new StationCable(ts).client());
    expect((await show(list, { accountId: ALL_ACCOUNTS })).rows.map((r) => r.account_id).sort()).toEqual([1, 2]);
    expect((await show(list, { search: `ada-${tag}` })).rows.map((r) => r.email)).toEqual([ADA]);
    expect((await show(list, { search: `wbn-${tag}` })).rows.map((r) => r.email)).toEqual([ADA]);
    expect((await show(list, { search: ADA, statuses: ['received'] })).rows).toEqual([]);
  });
});
