import { useEffect } from 'react';
import { useNav } from '../state/nav-store.ts';
import { useReviews } from './page-reviews.ts';

/** The dock day's way to the review list, with how many parcels wait there. */
export function HeldButton() {
  const held = useReviews((s) => s.held.length);
  const loaded = useReviews((s) => s.loaded);
  const load = useReviews((s) => s.load);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <button type="button" className={held > 0 ? 'btn btn-warn-active' : 'btn'} onClick={() => useNav.getState().go('reviews')} data-testid="supervisor-reviews">
      Review list{loaded ? ` (${held})` : ''}
    </button>
  );
}
