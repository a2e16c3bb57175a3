import type { SiteView } from '#shared/api/site.ts';
import type { BoundTables, ReadTables } from '../store/index.ts';
import { REMOVED_FROM_SITE } from '../sync/upstream/answers.ts';
import { saveUpstreamSettings, upstreamSettingsIn } from '../sync/settings.ts';
import type { UpstreamSettings } from '../sync/upstream/upstream-client.ts';
import { handoverView } from './handover.ts';
import { membersIn, memberView } from './hub.ts';
import type { PreviousMembership } from './join.ts';
import { siteManagedOf } from './site-config.ts';

/** The membership this station holds from an earlier join (a new join replaces it): its member id and its hub's pinned authority; undefined when it joined none. */
export async function currentMembership(t: Pick<ReadTables, 'station_meta'>): Promise<PreviousMembership | undefined> {
  const site = (await upstreamSettingsIn(t))?.site;
  const id = Number(site?.member_id);
  return site && Number.isSafeInteger(id) && id > 0 ? { memberId: id, hubCaSha256: site.hub_ca_sha256 } : undefined;
}

/**
 * Stores a join's outcome as the station's upstream: the hub, its accounts, the member's token and
 * the pinned authority. It replaces whatever upstream was set (and lifts a removed member's pause);
 * unsent changes stay queued and go to the hub.
 */
export async function saveJoinedSite(t: BoundTables, settings: UpstreamSettings, now: string): Promise<void> {
  await saveUpstreamSettings(t, settings, now);
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
  return {
    hub,
    pending_changes: pendingChanges,
    members: (await membersIn(t)).map(memberView),
    handover: await handoverView(t),
    managed: await siteManagedOf(t),
  };
}
