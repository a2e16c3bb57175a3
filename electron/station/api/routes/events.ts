import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type EventName, formatSseEvent } from '#shared/api/events.ts';
import type { SyncStatus } from '#shared/api/station.ts';
import { parseStrictId } from '#shared/api/common.ts';
import { API_ROUTES } from '#shared/api/routes.ts';
import { fail } from '../../errors.ts';
import type { DomainContext } from '../../domain/context.ts';
import { packageDetailView } from '../../domain/package-view-loader.ts';
import { SYNC_DISABLED } from '../../domain/sync-port.ts';
import { returnView } from '../../domain/record-views.ts';
import type { ChangeLogEntry, ReturnPackage, ReturnRecord } from '../../store/index.ts';
import { createRouteOpening, fastifyPath, originOf } from '../route.ts';

/**
 * Open streams one token may hold on one account: each holds a connection and a listener for as
 * long as it lasts. Per account, so a station UI following every account is not cut short.
 */
export const MAX_STREAMS_PER_TOKEN = 8;

function eventNameOf(entry: ChangeLogEntry): EventName | null {
  const verb = entry.action === 'created' ? 'created' : entry.action === 'updated' ? 'updated' : null;
  if (!verb) return null;
  if (entry.resource === 'return_package') return `package.${verb}`;
  if (entry.resource === 'return') return `return.${verb}`;
  // Not an account's: every account's stream tells of it, so a site's members take the change at once.
  if (entry.resource === 'operator' || entry.resource === 'station_settings') return 'site.config';
  return null;
}

/** Where a reconnecting stream resumes: after its `Last-Event-ID`, else from now (0: no replay). */
function resumePointOf(request: FastifyRequest): number {
  const header = request.headers['last-event-id'];
  const resumeAfter = typeof header === 'string' && header !== '' ? parseStrictId(header) : 0;
  if (resumeAfter === null)
    throw fail('INVALID_QUERY', 'Last-Event-ID must be an event id sent by this station.', {
      fields: [{ path: 'Last-Event-ID', message: 'Expected an event id.' }],
    });
  return resumeAfter;
}

/**
 * Counts the open streams of each token on each account. `claim` checks and counts with no await in
 * between, so simultaneous openings cannot slip past; it returns the release for the stream's close.
 */
function createStreamQuota(max: number) {
  const held = new Map<string, number>();
  return (tokenId: number, accountId: number): (() => void) => {
    const key = `${tokenId}:${accountId}`;
    const count = held.get(key) ?? 0;
    if (count >= max) {
      throw fail('RATE_LIMITED', `This token already holds ${count} open event streams on account ${accountId}; close one first.`, { retry_after_seconds: 1 });
    }
    held.set(key, count + 1);
    return () => {
      const left = (held.get(key) ?? 1) - 1;
      if (left > 0) held.set(key, left);
      else held.delete(key);
    };
  };
}

/** The event a change-log entry of this account becomes, or null when it is not sent. */
async function eventOf(ctx: DomainContext, entry: ChangeLogEntry, accountId: number, origin: string): Promise<{ name: EventName; data: unknown } | null> {
  const name = eventNameOf(entry);
  if (!name) return null;
  const head = { account_id: accountId, occurred_at: entry.created_at };
  if (name === 'site.config') return { name, data: head };
  if (entry.resource === 'return') return { name, data: { ...head, return: returnView(entry.data as ReturnRecord) } };
  return { name, data: { ...head, package: await packageDetailView(ctx.store.tables, ctx.config, entry.data as ReturnPackage, origin) } };
}

/**
 * `GET .../accounts/{account_id}/events`: live changes as Server-Sent Events. The stream first
 * replays the change log after `Last-Event-ID` (the log is bounded), then follows commits; an event
 * is sent only once it is durable. Package events carry the package as it is when sent.
 */
export function eventRoutes(server: FastifyInstance, ctx: DomainContext, options: { heartbeatMs: number }): void {
  /** Each open stream and the token it was opened with (0: none). */
  const openStreams = new Map<ServerResponse, number>();
  const claimStream = createStreamQuota(MAX_STREAMS_PER_TOKEN);
  // Streams never finish on their own: end them so that shutdown does not wait for them.
  server.addHook('preClose', async () => {
    for (const stream of openStreams.keys()) stream.end();
  });
  const stopCutting = cutRevokedStreams(ctx, openStreams);
  server.addHook('onClose', async () => stopCutting());

  const route = API_ROUTES.streamEvents;
  const openRequest = createRouteOpening(ctx, route);
  // Stream openings have their own hourly budget (api/rate-limit.ts): a client that reconnects after
  // every dropped connection must not spend the requests its token is allowed.
  server.get(fastifyPath(route.path), { config: { rateBudget: 'eventStreams' } }, async (request, reply) => {
    const { params, principal } = await openRequest(request);
    const accountId = params.account_id;
    const resumeAfter = resumePointOf(request);
    const releaseStream = claimStream(principal?.tokenId ?? 0, accountId);
    const raw = startEventStream(request, reply);
    openStreams.set(raw, principal?.tokenId ?? 0);
    // Subscribed before the replay's first await, so nothing committed in between is missed; and
    // everything is released on close, which is listened for before that await too.
    const stream = followAccount(ctx, raw, {
      accountId,
      resumeAfter,
      origin: originOf(request),
      log: request.log,
      stationWide: principal?.scope === 'station',
    });
    const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), options.heartbeatMs);
    raw.on('close', () => {
      clearInterval(heartbeat);
      stream.stop();
      openStreams.delete(raw);
      releaseStream();
    });
    if (resumeAfter > 0) stream.replay((after) => ctx.store.changeLog.after(after, REPLAY_PAGE));
  });
}

/**
 * A token checked once at a stream's opening would keep it flowing after a revoke (a site member's
 * removal, a supervisor session that ended, `token revoke`): when a commit revokes or deletes a
 * token, the streams opened with it end, and reopening is refused like any request of that token.
 */
function cutRevokedStreams(ctx: DomainContext, streams: Map<ServerResponse, number>): () => void {
  const cut = (gone: (tokenId: number) => boolean) => {
    for (const [stream, tokenId] of streams) if (tokenId !== 0 && gone(tokenId)) stream.end();
  };
  return ctx.store.onChange(['tokens'], (change) => {
    if (streams.size === 0) return;
    if (change.kind === 'records') {
      const revoked = new Set<number>();
      for (const record of change.records) {
        if (record.table !== 'tokens') continue;
        const token = record.value();
        if (token === undefined || token.revoked_at !== null) revoked.add(Number(record.key));
      }
      if (revoked.size > 0) cut((tokenId) => revoked.has(tokenId));
      return;
    }
    // Any token may differ (a repair after a failed commit): each stream's token is read again.
    void Promise.all([...new Set(streams.values())].map(async (tokenId) => [tokenId, await ctx.store.tables.tokens.get(tokenId)] as const)).then((tokens) => {
      const gone = new Set(tokens.filter(([, token]) => !token || token.revoked_at !== null).map(([tokenId]) => tokenId));
      cut((tokenId) => gone.has(tokenId));
    });
  });
}

/** Change-log entries read from SQLite at a time when a client resumes: a week of them may wait. */
const REPLAY_PAGE = 500;

/** Takes the connection over from Fastify and writes the stream's head. */
function startEventStream(request: FastifyRequest, reply: FastifyReply): ServerResponse {
  reply.hijack();
  const raw = reply.raw;
  // The connection's idle timeout is for requests; a stream lives until either side ends it.
  request.raw.socket.setTimeout(0);
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  raw.write('retry: 2000\n\n');
  return raw;
}

/**
 * Writes one account's changes to the stream, each once and in order: the sync state first, then
 * every committed change after `resumeAfter` (from `replay`, page by page from the stored log, and
 * from `send`, fed by the store as changes become durable), and sync state changes as they happen
 * (no id: a state, not a change to resume from). Everything goes through one queue, so changes
 * that arrive while the replay runs wait behind it and are then written only when it had not.
 */
function followAccount(
  ctx: DomainContext,
  raw: ServerResponse,
  {
    accountId,
    resumeAfter,
    origin,
    log,
    stationWide,
  }: { accountId: number; resumeAfter: number; origin: string; log: FastifyBaseLogger; stationWide: boolean },
): { replay(read: (after: number) => ChangeLogEntry[]): void; stop(): void } {
  const syncEvent = (sync: SyncStatus) => `event: sync.status\ndata: ${JSON.stringify({ account_id: accountId, occurred_at: ctx.clock.now(), sync })}\n\n`;
  raw.write(syncEvent(ctx.sync?.status() ?? SYNC_DISABLED));
  let lastSent = resumeAfter;
  let queue = Promise.resolve();
  // Ended by the station, or closed by the client (then the replay stops reading pages too).
  const gone = () => raw.writableEnded || raw.destroyed;
  const write = async (entries: readonly ChangeLogEntry[]) => {
    for (const entry of entries) {
      // The station's own changes (no account: `site.config`) go to station tokens' streams only.
      if (entry.seq <= lastSent || entry.account_id !== (entry.account_id === null && stationWide ? null : accountId) || gone()) continue;
      // Jobs run one after another on `queue`, so nothing else moves `lastSent` during the await.
      const event = await eventOf(ctx, entry, accountId, origin);
      if (!event) continue;
      lastSent = entry.seq;
      raw.write(formatSseEvent(String(entry.seq), event.name, event.data));
    }
  };
  const enqueue = (job: () => Promise<void>) => {
    queue = queue.then(job).catch((error: unknown) => {
      log.error({ err: error }, 'event stream failed');
      raw.end();
    });
  };
  const send = (entries: ChangeLogEntry[]) => enqueue(() => write(entries));
  const replay = (read: (after: number) => ChangeLogEntry[]) =>
    enqueue(async () => {
      for (let after = resumeAfter; !gone();) {
        const page = read(after);
        const last = page.at(-1);
        if (!last) return;
        await write(page);
        after = last.seq;
        // The dock's requests go between pages.
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
  const unsubscribeChanges = ctx.store.subscribe(send);
  const unsubscribeSync = ctx.sync?.onStatus((sync) =>
    enqueue(async () => {
      if (!gone()) raw.write(syncEvent(sync));
    }),
  );
  return {
    replay,
    stop() {
      unsubscribeChanges();
      unsubscribeSync?.();
    },
  };
}
