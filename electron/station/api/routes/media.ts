import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '#shared/api/errors.ts';
import { MEDIA_TYPE_NAMES, MEDIA_TYPES, MULTIPART_FIELD_BYTES, MULTIPART_FIELDS_MAX } from '#shared/api/media.ts';
import { API_ROUTES } from '#shared/api/routes.ts';
import type { DomainContext } from '../../domain/context.ts';
import { assertCaptureTime, assertPackageExists, attachMedia, detachMedia, mediaByUrlToken } from '../../domain/media-files.ts';
import { mediaFileView } from '../../domain/record-views.ts';
import { type ReceivedUpload, receiveUpload } from '../media-upload.ts';
import { addRoute } from '../route.ts';

/** Media of a package: upload (multipart or raw), delete. */
export async function mediaFileRoutes(server: FastifyInstance, ctx: DomainContext): Promise<void> {
  // The part named `file` is the upload, with or without a file name; other fields are read past
  // (a few, short: MULTIPART_FIELDS_MAX) in any order (media-upload.ts).
  await server.register(fastifyMultipart, {
    isPartAFile: (fieldName: string | undefined) => fieldName === 'file',
    limits: { files: 1, fields: MULTIPART_FIELDS_MAX, parts: MULTIPART_FIELDS_MAX + 1, fieldSize: MULTIPART_FIELD_BYTES, headerPairs: 100 },
  });
  // A raw upload stays a stream: it goes to disk in chunks, never whole into memory.
  server.addContentTypeParser(MEDIA_TYPE_NAMES, (_request, payload, done) => done(null, payload));

  addRoute<typeof API_ROUTES.uploadMediaFile, ReceivedUpload & { capturedAt: string | null }>(
    server,
    ctx,
    API_ROUTES.uploadMediaFile,
    async ({ params, prepared, origin, t, now }) => {
      const media = await attachMedia(
        t,
        now,
        params.account_id,
        params.id,
        prepared.stored,
        prepared.type,
        MEDIA_TYPES[prepared.type].kind,
        prepared.capturedAt,
      );
      return { body: mediaFileView(media, origin) };
    },
    {
      // The bytes go to disk first (streamed, checked, fsynced); the transaction only records them.
      prepare: async ({ params, query, request }) => {
        await assertPackageExists(ctx, params.account_id, params.id);
        assertCaptureTime(query.captured_at, ctx.clock.now());
        return { ...(await receiveUpload(request, ctx.store)), capturedAt: query.captured_at ?? null };
      },
      // The same bytes said to be taken at another time are another request (none said: as before there was a time to say).
      fingerprint: (upload) => ({ sha256: upload.stored.sha256, type: upload.type, ...(upload.capturedAt === null ? {} : { captured_at: upload.capturedAt }) }),
      // Recorded (or refused): the bytes are no longer held; the collector keeps them while a record names them.
      release: (upload) => ctx.store.media.release(upload.stored.sha256),
    },
  );

  addRoute(server, ctx, API_ROUTES.deleteMediaFile, async ({ params, t, now, afterCommit }) => {
    const sha256 = await detachMedia(t, now, params.account_id, params.id, params.media_id);
    afterCommit(async () => void (await ctx.store.media.collect(sha256)));
    return { body: undefined };
  });
}

/**
 * `GET /media/{token}`: the bytes behind a capability URL, with their stored type, `nosniff`, and a
 * sandboxing CSP so that even a crafted PDF cannot run script in the station's origin.
 */
export function mediaBytesRoute(server: FastifyInstance, ctx: DomainContext): void {
  server.get('/media/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    const media = /^[A-Za-z0-9_-]{43}$/.test(token) ? await mediaByUrlToken(ctx.store.tables, token) : undefined;
    const local = media !== undefined && (await ctx.store.media.exists(media.sha256));
    if (!media || (!local && media.remote_url === undefined)) {
      return reply.code(404).send(errorBody('NOT_FOUND', 'No such media file.'));
    }
    // A photo taken at another station of the site: its bytes are read from the hub as they are shown.
    const remote = local || !ctx.sync ? null : await ctx.sync.hubMediaBytes(media.remote_url ?? '');
    if (!local && remote === null) return reply.code(503).send(errorBody('UNAVAILABLE', 'This photo is kept at the site’s hub, which cannot be reached now.'));
    reply
      .code(200)
      .type(media.content_type)
      .header('content-length', String(media.size))
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'private, max-age=31536000, immutable')
      .header('cross-origin-resource-policy', 'same-origin');
    return reply.send(remote ?? ctx.store.media.open(media.sha256));
  });
}
