import type { z } from 'zod';
import { SiteHandoverSchema, type SiteHandover, SiteUplinkSchema, type SiteUplink } from '#shared/api/site.ts';
import { fail } from '../errors.ts';
import type { BoundTables, ReadTables } from '../store/index.ts';
import { deleteUpstreamSettings, upstreamSettingsIn } from '../sync/settings.ts';
import { membersIn, removeMember } from './hub.ts';

/*
 * The old hub's side of moving the hub (docs/decisions/site-promote.md). A supervisor names the
 * member that becomes the hub: in that write this station's uplink leaves its sync (nothing more goes
 * to the returns service from here, so nothing goes up twice) and is kept for that member alone. The
 * member takes it after it pulled everything this hub holds; in that write every other member's token
 * is revoked, so work done on the site from then on is held on the stations until they join the new hub.
 */

const HANDOVER_KEY = 'site.handover';

const StoredHandoverSchema = SiteHandoverSchema.extend({ uplink: SiteUplinkSchema.nullable() });
type StoredHandover = z.infer<typeof StoredHandoverSchema>;

async function handoverIn(t: Pick<ReadTables, 'station_meta'>): Promise<StoredHandover | null> {
  const parsed = StoredHandoverSchema.safeParse((await t.station_meta.get(HANDOVER_KEY))?.value);
  return parsed.success ? parsed.data : null;
}

/** The handover as the site view shows it (never the uplink's token); null when this station never stepped down. */
export async function handoverView(t: Pick<ReadTables, 'station_meta'>): Promise<SiteHandover | null> {
  const stored = await handoverIn(t);
  return stored ? { member_id: stored.member_id, stepped_down_at: stored.stepped_down_at, taken_at: stored.taken_at } : null;
}

/** Names the member that becomes the hub and takes this station's uplink out of its sync, in the caller's write. */
export async function stepDown(t: BoundTables, now: string, memberId: number): Promise<void> {
  const member = (await membersIn(t)).find((m) => m.id === memberId);
  if (!member || member.removed_at !== null)
    throw fail('NOT_FOUND', `No member ${memberId} on this hub (site show lists them; a removed member cannot become the hub).`);
  const earlier = await handoverIn(t);
  if (earlier?.taken_at) throw fail('NOT_FOUND', `The uplink was taken by member ${earlier.member_id} at ${earlier.taken_at}: this station is no hub now.`);
  const settings = await upstreamSettingsIn(t);
  let uplink: SiteUplink | null = earlier?.uplink ?? null;
  if (settings) {
    if (settings.site)
      throw fail('NOT_A_HUB', 'This station syncs with a hub of its own: only the hub that talks to the returns service can hand over its uplink.');
    uplink = { returns_url: settings.returns_url, base_url: settings.base_url, token: settings.token, accounts: settings.accounts };
  }
  if (!uplink) throw fail('NOT_A_HUB', 'This station has no uplink to hand over (no upstream is set): the new hub is given it with `upstream set`.');
  await t.station_meta.put({
    key: HANDOVER_KEY,
    value: { member_id: memberId, stepped_down_at: earlier?.stepped_down_at ?? now, taken_at: null, uplink } satisfies StoredHandover,
  });
  await deleteUpstreamSettings(t);
}

/**
 * The named member takes the uplink with its own token. Every other member's token is revoked in
 * the same write; the taker's stays, so an answer lost on the way is asked for again.
 */
export async function takeUplink(t: BoundTables, now: string, tokenId: number): Promise<SiteUplink> {
  const members = await membersIn(t);
  const caller = members.find((m) => m.token_id === tokenId && m.removed_at === null);
  if (!caller) throw fail('NOT_SITE_MEMBER', "Only the member this hub named (site promote MEMBER) may take the site's uplink.");
  const handover = await handoverIn(t);
  if (!handover?.uplink) throw fail('NOT_FOUND', 'This hub holds no uplink for a member: name one first (on the hub: returns-station site promote MEMBER).');
  if (handover.member_id !== caller.id) throw fail('NOT_SITE_MEMBER', `The uplink waits for member ${handover.member_id}, not member ${caller.id}.`);
  if (handover.taken_at !== null) return handover.uplink;
  for (const member of members) if (member.removed_at === null && member.id !== caller.id) await removeMember(t, now, member.id);
  await t.station_meta.put({ key: HANDOVER_KEY, value: { ...handover, taken_at: now } satisfies StoredHandover });
  return handover.uplink;
}
