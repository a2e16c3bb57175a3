import type { FastifyInstance } from 'fastify';
import { API_ROUTES } from '#shared/api/routes.ts';
import type { DomainContext } from '../../domain/context.ts';
import { packageOfAccount } from '../../domain/packages.ts';
import { confirmReview, releaseReview, reviewedPackageOf, reviewList } from '../../domain/reviews.ts';
import { fail } from '../../errors.ts';
import { addRoute } from '../route.ts';

/**
 * The review (docs/api-reference.md, The review): the supervisor's list of packages held by a failed
 * check, a package's review, and the two decisions, each recorded with the session's supervisor.
 */
export function reviewRoutes(server: FastifyInstance, ctx: DomainContext): void {
  addRoute(server, ctx, API_ROUTES.listReviews, async ({ query }) => ({ body: { data: await reviewList(ctx, query.state, query.limit) } }));
  addRoute(server, ctx, API_ROUTES.getPackageReview, async ({ t, params }) => ({
    body: await reviewedPackageOf(t, await packageOfAccount(t, params.account_id, params.id)),
  }));
  addRoute(server, ctx, API_ROUTES.releaseReview, async ({ t, now, params, body, principal }) => {
    const pkg = await releaseReview(t, now, params.account_id, params.id, { operatorId: principal.operatorId }, body.note);
    return { body: decidedView(await reviewedPackageOf(t, pkg)) };
  });
  addRoute(server, ctx, API_ROUTES.confirmReview, async ({ t, now, params, body, principal }) => {
    const pkg = await confirmReview(t, now, params.account_id, params.id, { operatorId: principal.operatorId }, body.reason);
    return { body: decidedView(await reviewedPackageOf(t, pkg)) };
  });
}

/** A decided package always has its review. */
function decidedView<V extends { review: unknown }>(view: V): V & { review: NonNullable<V['review']> } {
  if (view.review === null) throw fail('INTERNAL_ERROR');
  return view as V & { review: NonNullable<V['review']> };
}
