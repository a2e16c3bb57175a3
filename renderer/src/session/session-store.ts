import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { ApiClient } from '#shared/api/client.ts';
import type { Operator } from '#shared/api/station.ts';
import { normaliseCode } from '#shared/barcode.ts';
import { pageClient } from '../api/station-api.ts';
import { readSetting, writeSetting } from '../state/settings.ts';

/*
 * Who is working: the operator whose id becomes `processor_id` of every package they receive.
 * Kept across reloads of this station's page so a refresh mid-shift does not sign anyone out.
 */

export interface SessionState {
  operator: Operator | null;
  /** The active workers: the sign-in screen's choices. */
  operators: Operator[];
  /** The deactivated ones: their badges are refused in words, never read as a parcel or an item. */
  deactivated: Operator[];
  loadOperators(): Promise<void>;
  signIn(operator: Operator): void;
  signOut(): void;
  /** The operator whose badge is this code, active or deactivated (`active` says which), if any. */
  byBadge(code: string): Operator | null;
  /** The active operator the number key signs in: their own key; on a station where nobody has one, the n-th. */
  byKey(n: number): Operator | null;
}

function stored(): Operator | null {
  const raw = readSetting('operator');
  if (!raw) return null;
  try {
    return JSON.parse(raw) as Operator;
  } catch {
    return null;
  }
}

export type SessionStore = UseBoundStore<StoreApi<SessionState>>;

/** A session store whose operators come from `client`. */
export function createSessionStore(client: Pick<ApiClient, 'listOperators'>): SessionStore {
  return create<SessionState>()((set, get) => ({
    operator: stored(),
    operators: [],
    deactivated: [],
    async loadOperators() {
      const all: Operator[] = [];
      for (let page = 1; ; page++) {
        const answer = await client.listOperators({ page, per_page: 250 });
        all.push(...answer.data);
        if (page >= answer.meta.total_pages) break;
      }
      set({ operators: all.filter((o) => o.active), deactivated: all.filter((o) => !o.active) });
    },
    signIn(operator) {
      writeSetting('operator', JSON.stringify(operator));
      set({ operator });
    },
    signOut() {
      writeSetting('operator', null);
      set({ operator: null });
    },
    byKey(n) {
      const operators = get().operators;
      if (operators.some((o) => o.sign_in_key !== null)) return operators.find((o) => o.sign_in_key === n) ?? null;
      return operators[n - 1] ?? null;
    },
    byBadge(code) {
      const wanted = normaliseCode(code);
      const has = (o: Operator) => o.badge_code !== null && normaliseCode(o.badge_code) === wanted;
      return get().operators.find(has) ?? get().deactivated.find(has) ?? null;
    },
  }));
}

/** This page's session. */
export const useSession = createSessionStore(pageClient);
