import { markChanged } from '../../domain/outbox.ts';
import type { BoundTables, ReadTables, SyncAccountState } from '../../store/index.ts';
import { initialAccountState } from '../account-state.ts';
import type { UpstreamSettings } from '../upstream/upstream-client.ts';

/*
 * A station that syncs with another upstream than before — a member taking its site's uplink
 * (`site promote`), a member moving to a new hub, `upstream set` to another returns service — holds
 * links whose upstream ids are the old upstream's: sent to the new one they would name other records,
 * or none. So they are dropped in the write that changes the upstream, and the records are linked
 * again by the adopt paths sync already has (docs/decisions/site-promote.md): the first pull is a
 * full read that links packages by tracking number and claims returns by content, and every unsent
 * change waits for that read (`create_attempted_at`), so nothing is created upstream that is there.
 * Units and photos recorded before the relink are looked for upstream before they are sent
 * (`relinked_at`: line-items-push.ts, media-push.ts).
 */

/** Which upstream a station's links belong to: a site's hub by its pinned authority (its address may change), else the two addresses. */
export function upstreamIdentity(settings: UpstreamSettings): string {
  return settings.site ? `hub ${settings.site.hub_ca_sha256}` : `${settings.returns_url} ${settings.base_url}`;
}

const LINKS_UPSTREAM_KEY = 'sync.links_upstream';

/** The upstream the station's links were made with; null when none was recorded (then the settings stored say it). */
async function linksUpstream(t: Pick<ReadTables, 'station_meta'>): Promise<string | null> {
  const value = (await t.station_meta.get(LINKS_UPSTREAM_KEY))?.value;
  return typeof value === 'string' ? value : null;
}

/**
 * The hub's authority rolled to its successor (site/authority-follow.ts): the same hub, so the links
 * stay its, in the caller's write.
 */
export async function followHubAuthority(t: BoundTables, before: UpstreamSettings, after: UpstreamSettings): Promise<void> {
  if ((await linksUpstream(t)) === upstreamIdentity(before)) await t.station_meta.put({ key: LINKS_UPSTREAM_KEY, value: upstreamIdentity(after) });
}

export type RelinkReason =
  /** A member of a site takes a returns service as its upstream: it becomes the site's uplink. */
  | 'takes-uplink'
  /** Any other change of upstream (a new hub, another returns service). */
  | 'new-upstream';

/**
 * In the write that stores new upstream settings: when they name another upstream than the links
 * were made with, drops the links and starts the relink. Resolves to what it did (null: same upstream).
 */
export async function relinkIfNewUpstream(t: BoundTables, before: UpstreamSettings | null, after: UpstreamSettings, now: string): Promise<RelinkReason | null> {
  const was = (await linksUpstream(t)) ?? (before ? upstreamIdentity(before) : null);
  const next = upstreamIdentity(after);
  await t.station_meta.put({ key: LINKS_UPSTREAM_KEY, value: next });
  if (was === null || was === next) return null;
  const reason: RelinkReason = before?.site && !after.site ? 'takes-uplink' : 'new-upstream';
  await relink(t, reason, now);
  return reason;
}

async function relink(t: BoundTables, reason: RelinkReason, now: string): Promise<void> {
  await t.upstream_links.clear();
  // Every account starts over as before its first pull: a full read, whose pages link what it finds.
  for (const state of await t.sync_state.all()) await t.sync_state.put(freshState(state, now));
  // A return has no natural key: each waits as a create whose answer was lost, so the full read claims
  // it by content (pull.ts) instead of copying the upstream's as a second one here.
  for (const record of await t.returns.all()) await markChanged(t, 'return', record.id, record.account_id, now);
  if (reason === 'takes-uplink') {
    // What the old hub had (its own unsent work too) is on this station now, linked to nothing the
    // returns service knows: every package is checked against it, and only what it lacks goes up.
    for (const pkg of await t.return_packages.all()) await markChanged(t, 'return_package', pkg.id, pkg.account_id, now);
  }
  // An unsent change may be upstream already (the old upstream pushed it on): it waits for the full
  // read. A cancelled package is found by its tracking number too (apply-upstream.ts), and its cancel
  // goes up; one the read did not find is held for a person (push.ts), never created.
  for (const slot of await t.outbox.all()) {
    if (slot.kind !== 'return' && slot.kind !== 'return_package') continue;
    await t.outbox.put({ ...slot, create_attempted_at: now, attempts: 0, next_attempt_at: null, hold: null, error: null });
  }
}

/**
 * A cancelled package the full read after a relink did not find upstream: the upstream never had it
 * (or knows it by another number), and a parcel created there only to be cancelled is a person's call.
 */
export const RELINK_CANCELLED_HELD = {
  hold: 'parked',
  error: {
    status: null,
    code: 'RELINK_CANCELLED',
    message:
      'Cancelled on this station and not found on its new upstream by tracking number: it is not sent as a new parcel. Check it upstream; keep local to drop the change.',
  },
} as const;

/** The account's state before any pull of the new upstream, with the time of the relink. */
function freshState(state: SyncAccountState, now: string): SyncAccountState {
  return { ...initialAccountState(state.account_id), relinked_at: now };
}

/** Whether a unit or photo recorded at `createdAt` may be upstream already under no link of this station (it was recorded before a relink). */
export function recordedBeforeRelink(state: Pick<SyncAccountState, 'relinked_at'>, createdAt: string): boolean {
  return state.relinked_at !== undefined && state.relinked_at !== null && createdAt <= state.relinked_at;
}
