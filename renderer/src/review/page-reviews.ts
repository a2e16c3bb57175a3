import { pageClient } from '../api/station-api.ts';
import { createReviewStore } from './review-store.ts';

/** The page's review list, on the page's client. */
export const useReviews = createReviewStore(pageClient);
