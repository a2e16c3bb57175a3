import type { Readable } from 'node:stream';
import { ApiClient, ApiError } from '#shared/api/client.ts';
import type { SiteUplink, TakeOverInput, UplinkOffer } from '#shared/api/site.ts';
import type { SyncStatus } from '#shared/api/station.ts';
import { type DomainContext, runScript } from '../domain/context.ts';
import { type MediaFile, outboxKey } from '../store/index.ts';
import type { RoundOptions } from '../sync/sync-engine.ts';
import type { RoundReport } from '../sync/sync-context.ts';
import { linkOfUpstream } from '../sync/links/upstream-links.ts';
import { displayUrl, parseUpstreamSettings, saveUpstreamSettings, upstreamSettingsIn } from '../sync/settings.ts';
import type { UpstreamSettings } from '../sync/upstream/upstream-client.ts';
import { upstreamFetch } from '../sync/upstream/upstream-fetch.ts';

/*
 * The member's side of moving the hub (docs/decisions/site-promote.md), the same whether the station
 * runs (`POST /api/v1/station/site/take-over`: the Settings button, `site promote` on a running
 * station) or not (`site promote` under the data directory's lock). Offered by the hub: everything
 * this station holds goes to the hub and everything the hub holds comes here (its unsent work is in
 * it), then the uplink is taken over the pinned channel. The hub lost: the operator gives the uplink.
 * Either way it is stored between two sync rounds, so no round of the old upstream writes a link
 * after the relink dropped them (sync/links/relink.ts).
 */

/** What taking over asks of sync: rounds with the hub, a photo's bytes at the hub, and a moment with no round under way. */
export interface TakeOverSync {
  runRound(options: RoundOptions): Promise<RoundReport>;
  status(): SyncStatus;
  hubMediaBytes(url: string): Promise<Readable | null>;
  between<T>(task: () => Promise<T>): Promise<T>;
}

/** A refusal with its reason for a person; nothing was taken. */
export class TakeOverRefused extends Error {}

/** Rounds with the old hub before the uplink is taken, at most: each pulls up to 50 whole receipts. */
const CATCH_UP_ROUNDS = 40;
/** How long the offer's question waits for the hub. */
const OFFER_TIMEOUT_MS = 5_000;

/** The hub this station joined, as an API client over the pinned channel; a refusal when it joined none. */
function hubClient(settings: UpstreamSettings | null, signal?: AbortSignal): { hub: ApiClient; settings: UpstreamSettings } {
  if (!settings?.site)
    throw new TakeOverRefused('This station joined no hub: on the hub, `site promote MEMBER` (or Settings → Site) names the member that becomes the hub.');
  const pinned = upstreamFetch(settings);
  return {
    hub: new ApiClient({
      baseUrl: settings.returns_url,
      token: settings.token,
      fetch: (input, init) => pinned(input, { ...init, ...(signal ? { signal } : {}) }),
    }),
    settings,
  };
}

/** Whether this station's hub named it to take the uplink, as the hub answers now. */
export async function uplinkOfferOf(ctx: DomainContext): Promise<UplinkOffer> {
  const settings = await upstreamSettingsIn(ctx.store.tables);
  if (!settings?.site) return { offered: false, message: 'This station joined no hub.', hub_answered: false };
  const memberId = Number(settings.site.member_id);
  try {
    const { hub } = hubClient(settings, AbortSignal.timeout(OFFER_TIMEOUT_MS));
    const handover = (await hub.site()).handover;
    if (handover?.member_id === memberId)
      return {
        offered: true,
        hub_answered: true,
        message: handover.taken_at
          ? `The hub's uplink was taken by this station at ${minute(handover.taken_at)}.`
          : `The hub stepped down at ${minute(handover.stepped_down_at)}: its uplink waits for this station.`,
      };
    return {
      offered: false,
      hub_answered: true,
      message: handover
        ? `The hub handed its uplink to member ${handover.member_id}, not this station.`
        : 'The hub has not offered its uplink to this station.',
    };
  } catch (error) {
    const why = error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error);
    return {
      offered: false,
      hub_answered: false,
      message: `The hub at ${displayUrl(settings.returns_url)} cannot be asked (${why}). If its machine is lost, take over without it.`,
    };
  }
}

/** A time as a person reads it in a sentence: to the minute, in UTC. */
function minute(at: string): string {
  return `${at.replace('T', ' ').slice(0, 16)} UTC`;
}

/**
 * Makes this member the site's hub: with `without_hub`, the returns service the operator gave; else
 * the uplink its hub offered, after catching up with the hub. Resolves to the uplink stored.
 */
export async function takeOverAsHub(ctx: DomainContext, sync: TakeOverSync, input: TakeOverInput): Promise<SiteUplink> {
  const { hub } = hubClient(await upstreamSettingsIn(ctx.store.tables));
  const withoutHub = input.without_hub === undefined ? undefined : parseUpstreamSettings(input.without_hub);
  if (withoutHub) {
    if (withoutHub.site) throw new TakeOverRefused('The uplink given is a hub joined with a code: give the returns service itself.');
    const uplink: SiteUplink = { returns_url: withoutHub.returns_url, base_url: withoutHub.base_url, token: withoutHub.token, accounts: withoutHub.accounts };
    await sync.between(() => runScript(ctx, (t, now) => saveUpstreamSettings(t, uplink, now)));
    return uplink;
  }
  await catchUp(ctx, sync);
  await copyHubPhotos(ctx, sync);
  return sync.between(async () => {
    let uplink: SiteUplink;
    try {
      uplink = await hub.takeSiteUplink();
    } catch (error) {
      if (error instanceof ApiError) throw new TakeOverRefused(`The hub refused: ${error.message} Nothing was taken.`);
      throw new TakeOverRefused(`The hub cannot be reached (${error instanceof Error ? error.message : String(error)}): nothing was taken; try again.`);
    }
    await runScript(ctx, (t, now) => saveUpstreamSettings(t, uplink, now));
    return uplink;
  });
}

/**
 * Complete rounds with the hub until this station holds nothing it can send and has read every list
 * and whole receipt the hub has. A change held for a person (the hub refused it) does not hold the
 * move up: the relink gives it a new try with the returns service. Work done at the dock meanwhile
 * is kept: what is not at the hub when the uplink is taken waits for the relink's read and goes to
 * the returns service.
 */
async function catchUp(ctx: DomainContext, sync: TakeOverSync): Promise<void> {
  let left: string[] = [];
  for (let round = 0; round < CATCH_UP_ROUNDS; round += 1) {
    const report = await sync.runRound({ pull: true, pullMode: 'complete', ignoreBackoff: true });
    if (report.offline || report.paused.length > 0) {
      throw new TakeOverRefused(
        `The hub cannot be reached (${[...report.paused, sync.status().last_error ?? 'no answer'].join('; ')}): nothing was taken. If the old hub is lost, take over without it (site promote --without-hub).`,
      );
    }
    const receiptsDue = await receiptsToRead(ctx);
    const unsent = await sendable(ctx);
    left = [
      ...(unsent > 0 ? [`${unsent} changes unsent`] : []),
      ...(receiptsDue > 0 ? [`${receiptsDue} receipts to read`] : []),
      ...report.pull_failed,
      ...report.pull_left,
    ];
    if (left.length === 0) return;
  }
  throw new TakeOverRefused(`Not caught up with the hub after ${CATCH_UP_ROUNDS} rounds (${left.join('; ')}): nothing was taken; try again.`);
}

/**
 * The hub's receipts this station has still to read, less those of packages whose own change is held
 * for a person: such a receipt waits for that change (site-receipts.ts) and would hold the move up for good.
 */
async function receiptsToRead(ctx: DomainContext): Promise<number> {
  const t = ctx.store.tables;
  let due = 0;
  for (const state of await t.sync_state.all()) {
    for (const upstreamId of state.site_receipts_due ?? []) {
      const link = await linkOfUpstream(t, state.account_id, 'return_package', upstreamId);
      const slot = link ? await t.outbox.get(outboxKey('return_package', link.local_id)) : undefined;
      if (!slot || slot.hold === null) due += 1;
    }
  }
  return due;
}

/** The changes this station would still send its hub: those not held for a person. */
async function sendable(ctx: DomainContext): Promise<number> {
  return (await ctx.store.tables.outbox.all()).filter((slot) => slot.hold === null).length;
}

/**
 * The photos this station shows through the hub (their bytes kept there, site-receipt.md) are copied
 * here before the uplink is taken: once the hub steps aside they may be nowhere else (the returns
 * service was down when they were taken). Any that cannot be read refuses the take-over.
 */
async function copyHubPhotos(ctx: DomainContext, sync: TakeOverSync): Promise<void> {
  const remote = new Map<string, MediaFile[]>();
  for (const file of await ctx.store.tables.media_files.all())
    if (file.remote_url !== undefined) remote.set(file.sha256, [...(remote.get(file.sha256) ?? []), file]);
  for (const [sha256, files] of remote) {
    const url = files[0]?.remote_url ?? '';
    if (!(await ctx.store.media.exists(sha256))) {
      const bytes = await sync.hubMediaBytes(url);
      if (!bytes) throw new TakeOverRefused(`A photo kept at the hub cannot be read (${url}): nothing was taken; try again.`);
      const stored = await ctx.store.media.put(bytes);
      if (stored.sha256 !== sha256) {
        await ctx.store.media.release(stored.sha256);
        throw new TakeOverRefused(`The hub answered other bytes for the photo ${sha256}: nothing was taken.`);
      }
    }
    // The records name bytes of this station now (no remote URL); the hold `put` took ends after.
    await ctx.store.write(async (t) => {
      for (const file of files) {
        const own: MediaFile = { ...file };
        delete own.remote_url;
        await t.media_files.put(own);
      }
    });
    await ctx.store.media.release(sha256);
  }
}
