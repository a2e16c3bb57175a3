import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { ApiClient } from '#shared/api/client.ts';
import type { ManualReturnCreateInput } from '#shared/api/returns.ts';
import type { LookupReturn } from '#shared/api/station.ts';
import { describeError } from '../api/describe-error.ts';
import { pageClient } from '../api/station-api.ts';
import { openPackage, type PackageOpener } from '../receiving/open-package.ts';

/*
 * Registering a parcel whose tracking number the station does not know: find its return (by email,
 * return id or a line's SKU — typed or scanned), or create a manual return, then the package.
 */

export interface RegisterState {
  trackingNumber: string;
  query: string;
  candidates: LookupReturn[];
  searching: boolean;
  error: string | null;
  start(trackingNumber: string): void;
  search(query: string): Promise<number>;
  choose(candidate: LookupReturn): Promise<void>;
  createManual(accountId: number, body: Omit<ManualReturnCreateInput, 'account_id'>): Promise<void>;
}

export type RegisterStore = UseBoundStore<StoreApi<RegisterState>>;

/** A register store that looks up and creates through `client` and opens what it registers with `open`. */
export function createRegisterStore(client: Pick<ApiClient, 'lookup' | 'createPackage' | 'createReturn'>, open: PackageOpener['openPackage']): RegisterStore {
  return create<RegisterState>()((set, get) => ({
    trackingNumber: '',
    query: '',
    candidates: [],
    searching: false,
    error: null,
    start(trackingNumber) {
      set({ trackingNumber, query: '', candidates: [], searching: false, error: null });
    },
    async search(query) {
      set({ query, searching: true, error: null });
      try {
        const answer = await client.lookup(query);
        set({ candidates: answer.returns, searching: false });
        return answer.returns.length;
      } catch (error) {
        set({ searching: false, error: describeError(error) });
        throw error;
      }
    },
    async choose(candidate) {
      const { trackingNumber } = get();
      try {
        const pkg = await client.createPackage(
          candidate.account_id,
          { return_id: candidate.return.id, tracking_number: trackingNumber, status: 'delivered' },
          { idempotencyKey: `register-${candidate.account_id}-${candidate.return.id}-${trackingNumber}` },
        );
        await open(candidate.account_id, pkg.id, pkg.status, pkg.return_id);
      } catch (error) {
        set({ error: describeError(error) });
        throw error;
      }
    },
    async createManual(accountId, body) {
      try {
        const ret = await client.createReturn({ ...body, account_id: accountId });
        await get().choose({ account_id: accountId, matched_by: 'id', matched_line_item_ids: [], return: ret });
      } catch (error) {
        set({ error: describeError(error) });
        throw error;
      }
    },
  }));
}

/** This page's register store. */
export const useRegister = createRegisterStore(pageClient, openPackage);
