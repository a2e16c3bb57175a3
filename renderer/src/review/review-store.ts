import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { ApiClient } from '#shared/api/client.ts';
import type { ReviewedPackage } from '#shared/api/reviews.ts';
import { describeError } from '../api/describe-error.ts';

/*
 * The supervisor's review list (docs/operator-guide.md, The review): the packages a failed check
 * holds, and the last decisions; a release, or a finding confirmed with its reason. The station
 * records who and when (the supervisor's session goes with the decision: api/station-api.ts).
 */

export type ReviewClient = Pick<ApiClient, 'reviews' | 'releaseReview' | 'confirmReview'>;

/** The last decisions shown under the held packages. */
const DECIDED_SHOWN = 10;

export interface ReviewState {
  held: readonly ReviewedPackage[];
  decided: readonly ReviewedPackage[];
  /** The package (`account/package`) whose reason is being typed, or null. */
  confirming: string | null;
  /** The package a decision is on its way for, or null. */
  busy: string | null;
  error: string | null;
  /** The last decision, in words. */
  done: string | null;
  loaded: boolean;
  load(): Promise<void>;
  askReason(pkg: ReviewedPackage | null): void;
  release(pkg: ReviewedPackage): Promise<void>;
  confirm(pkg: ReviewedPackage, reason: string): Promise<void>;
}

export const reviewKey = (pkg: Pick<ReviewedPackage, 'account_id' | 'package_id'>): string => `${pkg.account_id}/${pkg.package_id}`;

export function createReviewStore(client: ReviewClient): UseBoundStore<StoreApi<ReviewState>> {
  return create<ReviewState>()((set, get) => {
    const decide = async (pkg: ReviewedPackage, run: () => Promise<ReviewedPackage>, said: (p: ReviewedPackage) => string) => {
      set({ busy: reviewKey(pkg), error: null, done: null });
      try {
        const decided = await run();
        set({ confirming: null, done: said(decided) });
        await get().load();
      } catch (error) {
        set({ error: describeError(error) });
      } finally {
        set({ busy: null });
      }
    };
    return {
      held: [],
      decided: [],
      confirming: null,
      busy: null,
      error: null,
      done: null,
      loaded: false,
      async load() {
        try {
          const [held, released, confirmed] = await Promise.all([
            client.reviews({ state: 'held' }),
            client.reviews({ state: 'released', limit: DECIDED_SHOWN }),
            client.reviews({ state: 'confirmed', limit: DECIDED_SHOWN }),
          ]);
          const decided = [...released.data, ...confirmed.data]
            .sort((a, b) => (b.review.decided_at ?? '').localeCompare(a.review.decided_at ?? ''))
            .slice(0, DECIDED_SHOWN);
          set({ held: held.data, decided, loaded: true });
        } catch (error) {
          set({ error: describeError(error), loaded: true });
        }
      },
      askReason(pkg) {
        set({ confirming: pkg ? reviewKey(pkg) : null, error: null });
      },
      release(pkg) {
        return decide(
          pkg,
          () => client.releaseReview(pkg.account_id, pkg.package_id, {}),
          (p) => `Released ${p.tracking_number}: its units follow the disposition rules.`,
        );
      },
      confirm(pkg, reason) {
        if (reason.trim() === '') {
          set({ error: 'Give the reason the finding stands (for example: empty box).' });
          return Promise.resolve();
        }
        return decide(
          pkg,
          () => client.confirmReview(pkg.account_id, pkg.package_id, { reason: reason.trim() }),
          (p) => `Confirmed the finding on ${p.tracking_number}: its units stay in quarantine.`,
        );
      },
    };
  });
}
