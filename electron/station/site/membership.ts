import type { SiteView } from '#shared/api/site.ts';
import type { BoundTables, ReadTables } from '../store/index.ts';
import { REMOVED_FROM_SITE } from '../sync/errors.ts';
import { saveUpstreamSettings, upstreamSettingsIn } from '../sync/settings.ts';
import type { UpstreamSettings } from '../sync/upstream-client.ts';
import { membersIn, memberView } from './hub.ts';
import { siteManagedOf } from './site-config.ts';

/** The member id this station holds from an earlier join (a new join replaces it); undefined when it joined none. */
export async function currentMemberId(t: Pick<ReadTables, 'station_meta'>): Promise<number | undefined> {
  const id = Number((await upstreamSettingsIn(t))?.site?.member_id);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * Stores a join's outcome as the station's upstream: the hub, its accounts, the member's token and
 * the pinned authority. It replaces whatever upstream was set (and lifts a removed member's pause);
 * unsent changes stay queued and go to the hub.
 */
export function saveJoinedSite(t: BoundTables, settings: UpstreamSettings, now: string): Promise<void> {
  return saveUpstreamSettings(t, settings, now);
}

/** The site as this station sees it: its hub (and whether the hub removed it), what it holds unsent, its own members. */
export async function siteViewOf(t: Pick<ReadTables, 'station_meta' | 'sync_state'>, pendingChanges: number): Promise<SiteView> {
  const settings = await upstreamSettingsIn(t);
  const site = settings?.site;
  let hub: SiteView['hub'] = null;
  if (settings && site) {
    const states = await t.sync_state.bulkGet(settings.accounts);
    hub = {
      url: settings.returns_url,
      ca_sha256: site.hub_ca_sha256,
      next_ca_sha256: site.hub_ca_next_sha256 ?? null,
      member_id: site.member_id,
      removed: states.some((state) => state?.paused?.message.startsWith(REMOVED_FROM_SITE) === true),
    };
  }
  return { hub, pending_changes: pendingChanges, members: (await membersIn(t)).map(memberView), managed: await siteManagedOf(t) };
}
