import type { FastifyInstance } from 'fastify';
import { listMeta } from '#shared/api/common.ts';
import { API_ROUTES } from '#shared/api/routes.ts';
import type { SyncOverview } from '#shared/api/sync.ts';
import type { DomainContext } from '../../domain/context.ts';
import { packageOfAccount } from '../../domain/packages.ts';
import { fail } from '../../errors.ts';
import type { ReadTables, UpstreamListState } from '../../store/index.ts';
import { listsOf } from '../../sync/lists/list-state.ts';
import { keepLocal, listChanges, recordSync, retryChange } from '../../sync/outbox/outbox-changes.ts';
import { deleteUpstreamSettings, displayUrl, parseUpstreamSettings, saveUpstreamSettings, upstreamSettingsIn } from '../../sync/settings.ts';
import { SYNC_DISABLED } from '../../domain/sync-port.ts';
import type { UpstreamSettings } from '../../sync/upstream/upstream-client.ts';
import { addRoute } from '../route.ts';

/** The settings as shown: both addresses without user-info, never the token. */
/** The upstream as the API shows it: its addresses without user-info, never the token. */
export const upstreamViewOf = (settings: Pick<UpstreamSettings, 'returns_url' | 'base_url' | 'accounts'>) => ({
  returns_url: displayUrl(settings.returns_url),
  base_url: displayUrl(settings.base_url),
  accounts: settings.accounts,
  token_set: true,
});

/** The sync screen's one read: state, upstream, the latest conflicts, how far each first pull got. */
async function syncOverview(ctx: DomainContext, t: ReadTables): Promise<SyncOverview> {
  const settings = await upstreamSettingsIn(t);
  const conflicts = await t.sync_conflicts.newest(50);
  return {
    status: ctx.sync ? await ctx.sync.refreshStatus() : SYNC_DISABLED,
    upstream: settings ? upstreamViewOf(settings) : null,
    conflicts: conflicts.map(({ local_id, ...rest }) => ({ ...rest, record_id: local_id })),
    ...(await pullProgress(t, settings?.accounts ?? [])),
  };
}

async function pullProgress(t: ReadTables, accounts: number[]): Promise<Pick<SyncOverview, 'pulls' | 'issues' | 'lists'>> {
  const pulls: SyncOverview['pulls'] = [];
  const issues: SyncOverview['issues'] = [];
  const lists: SyncOverview['lists'] = [];
  for (const state of await t.sync_state.bulkGet(accounts)) {
    if (!state) continue;
    const accountId = state.account_id;
    for (const [name, list] of Object.entries(listsOf(state)) as Array<['packages' | 'returns', UpstreamListState]>) {
      const resource = name === 'packages' ? 'return_packages' : 'returns';
      if (list.pass) pulls.push({ account_id: accountId, resource, stored: list.pass.seen, total: list.pass.total });
      lists.push({
        account_id: accountId,
        resource,
        page_size: list.page_size,
        order: list.order,
        changes: list.changes,
        total: list.total,
        passed_at: list.passed_at,
        contradiction: list.contradiction,
      });
    }
    issues.push(...(state.issues ?? []).map((issue) => ({ account_id: accountId, ...issue })));
  }
  issues.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return { pulls, issues: issues.slice(0, 100), lists };
}

/** Sync as the API shows it (docs/api-decisions.md, "Sync"): state, waiting changes, settings, where a record stands. */
export function syncRoutes(server: FastifyInstance, ctx: DomainContext): void {
  const nudge = () => {
    ctx.sync?.nudge();
    return ctx.sync?.refreshStatus().then(() => undefined) ?? Promise.resolve();
  };

  addRoute(server, ctx, API_ROUTES.getSync, async ({ t }) => ({ body: await syncOverview(ctx, t) }));
  addRoute(server, ctx, API_ROUTES.listSyncChanges, async ({ t, query }) => {
    const { data, total } = await listChanges(t, query.state, query.page, query.per_page);
    return { body: { data, meta: listMeta(query.page, query.per_page, total) } };
  });
  addRoute(server, ctx, API_ROUTES.retrySyncChange, async ({ t, body, afterCommit }) => {
    afterCommit(nudge);
    return { body: await retryChange(t, body) };
  });
  addRoute(server, ctx, API_ROUTES.keepLocalSyncChange, async ({ t, body, now, afterCommit }) => {
    afterCommit(nudge);
    await keepLocal(t, body, now);
    return { body: undefined };
  });
  addRoute(server, ctx, API_ROUTES.getUpstream, async ({ t }) => {
    const settings = await upstreamSettingsIn(t);
    return { body: settings ? upstreamViewOf(settings) : { returns_url: null, base_url: null, accounts: [], token_set: false } };
  });
  addRoute(server, ctx, API_ROUTES.setUpstream, async ({ t, body, now, afterCommit }) => {
    const settings = parseUpstreamSettings(body);
    await saveUpstreamSettings(t, settings, now);
    afterCommit(nudge);
    return { body: upstreamViewOf(settings) };
  });
  addRoute(server, ctx, API_ROUTES.removeUpstream, async ({ t, afterCommit }) => {
    await deleteUpstreamSettings(t);
    afterCommit(nudge);
    return { body: undefined };
  });
  // The dock shows a package: its upstream read starts once the answer is on its way and is never
  // awaited (sync/pull/fresh-reads.ts caps it at 3 s); the fresh values reach the screen as `package.updated`.
  addRoute(server, ctx, API_ROUTES.refreshReturnPackage, async ({ t, params, request, afterCommit }) => {
    const pkg = await packageOfAccount(t, params.account_id, params.id);
    afterCommit(async () => {
      void ctx.sync?.refreshPackage(pkg.account_id, pkg.id).then(({ outcome, message }) => {
        if (outcome === 'failed') request.log.warn({ package_id: pkg.id, reason: message }, 'sync: the dock read of a package failed');
      });
    });
    return { body: undefined };
  });
  addRoute(server, ctx, API_ROUTES.getReturnSync, async ({ t, params }) => {
    const accountId = params.account_id;
    const record = await t.returns.get(params.id);
    if (!record || record.account_id !== accountId) throw fail('NOT_FOUND', `No return ${params.id} in account ${accountId}.`);
    return { body: await recordSync(t, await upstreamSettingsIn(t), 'return', record.id, accountId) };
  });
  addRoute(server, ctx, API_ROUTES.getReturnPackageSync, async ({ t, params }) => {
    const accountId = params.account_id;
    const pkg = await packageOfAccount(t, accountId, params.id);
    return { body: await recordSync(t, await upstreamSettingsIn(t), 'return_package', pkg.id, accountId) };
  });
}
