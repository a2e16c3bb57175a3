import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type EventName, formatSseEvent } from '#shared/api/events.ts';
import type { SyncStatus } from '#shared/api/station.ts';
import { parseStrictId } from '#shared/api/common.ts';
import { API_ROUTES } from '#shared/api/routes.ts';
import { fail } from '../../errors.ts';
import type { DomainContext } from '../../domain/context.ts';
import { packageDetailView } from '../../domain/package-view-loader.ts';
import { SYNC_DISABLED } from '../../domain/station-status.ts';
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
  return null;
}

/**
 * `GET .../accounts/{account_id}/events`: live changes as Server-Sent Events. The stream first
 * replays the change log after `Last-Event-ID` (the log is bounded), then follows commits; an event
 * is sent only once it is durable. Package events carry the package as it is when sent.
 */
export function eventRoutes(server: FastifyInstance, ctx: DomainContext, options: { heartbeatMs: number; opensPerHour: number; anonymousPerHour: number }): void {
  const openStreams = new Set<ServerResponse>();
  const streamsByToken = new Map<string, number>();
  // Streams never finish on their own: end them so that shutdown does not wait for them.
  server.addHook('preClose', async () => {
    for (const stream of openStreams) stream.end();
  });

  // Stream openings have their own hourly budget: a client that reconnects after every dropped
  // connection must not spend the requests its token is allowed.
  const rateLimit = {
    groupId: ':events',
    max: async (request: FastifyRequest) => (request.principal ? options.opensPerHour : options.anonymousPerHour),
  };
  const route = API_ROUTES.streamEvents;
  const openRequest = createRouteOpening(ctx, route);
  server.get(fastifyPath(route.path), { config: { rateLimit } }, async (request, reply) => {
    const { params, principal } = await openRequest(request);
    const accountId = params.account_id;
    const lastEventHeader = request.headers['last-event-id'];
    const resumeAfter = typeof lastEventHeader === 'string' && lastEventHeader !== '' ? parseStrictId(lastEventHeader) : 0;
    if (resumeAfter === null) throw fail('INVALID_QUERY', 'Last-Event-ID must be an event id sent by this station.', { fields: [{ path: 'Last-Event-ID', message: 'Expected an event id.' }] });
    const origin = originOf(request);
    // Checked and counted with no await in between, so simultaneous openings cannot slip past.
    const streamKey = `${principal?.tokenId ?? 0}:${accountId}`;
    const held = streamsByToken.get(streamKey) ?? 0;
    if (held >= MAX_STREAMS_PER_TOKEN) {
      throw fail('RATE_LIMITED', `This token already holds ${held} open event streams on account ${accountId}; close one first.`, { retry_after_seconds: 1 });
    }
    streamsByToken.set(streamKey, held + 1);

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
    // The sync state first (no id: it is a state, not a change to resume from).
    const syncEvent = (sync: SyncStatus) => `event: sync.status\ndata: ${JSON.stringify({ account_id: accountId, occurred_at: ctx.clock.now(), sync })}\n\n`;
    raw.write(syncEvent(ctx.sync?.status() ?? SYNC_DISABLED));
    openStreams.add(raw);

    let lastSent = resumeAfter;
    let queue = Promise.resolve();
    const send = (entries: ChangeLogEntry[]) => {
      queue = queue.then(async () => {
        for (const entry of entries) {
          if (entry.seq <= lastSent || entry.account_id !== accountId || raw.writableEnded) continue;
          const name = eventNameOf(entry);
          if (!name) continue;
          lastSent = entry.seq;
          const data =
            entry.resource === 'return'
              ? { account_id: accountId, occurred_at: entry.created_at, return: returnView(entry.data as ReturnRecord) }
              : { account_id: accountId, occurred_at: entry.created_at, package: await packageDetailView(ctx.store.db, ctx.config, entry.data as ReturnPackage, origin) };
          raw.write(formatSseEvent(String(entry.seq), name, data));
        }
      }).catch((error: unknown) => {
        request.log.error({ err: error }, 'event stream failed');
        raw.end();
      });
    };
    // Subscribe before replaying, so nothing committed in between is missed; `lastSent` drops repeats.
    // Everything is released on close, which is listened for before the replay's first await.
    const unsubscribeChanges = ctx.store.subscribe(send);
    // Sync state changes go out as they happen (no id: a state, not a change to resume from).
    const unsubscribeSync = ctx.sync?.onStatus((sync) => {
      queue = queue.then(() => {
        if (!raw.writableEnded) raw.write(syncEvent(sync));
      });
    });
    const unsubscribe = () => {
      unsubscribeChanges();
      unsubscribeSync?.();
    };
    const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), options.heartbeatMs);
    raw.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      openStreams.delete(raw);
      const left = (streamsByToken.get(streamKey) ?? 1) - 1;
      if (left > 0) streamsByToken.set(streamKey, left);
      else streamsByToken.delete(streamKey);
    });
    if (resumeAfter > 0) send(await ctx.store.db.change_log.where('seq').above(resumeAfter).toArray());
  });
}
