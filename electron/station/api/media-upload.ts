import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { errorBody } from '#shared/api/errors.ts';
import { bytesMatchMediaType, MEDIA_TYPE_NAMES, MEDIA_TYPES, type MediaType, MULTIPART_FIELDS_MAX, parseMediaContentType } from '#shared/api/media.ts';
import { ContractError, fail } from '../errors.ts';
import { MediaBudgetError, MediaTooLargeError } from '../media/index.ts';
import { storageFailure } from './http/storage-errors.ts';
import type { StationStore, StoredMedia } from '../store/index.ts';

/** Bytes needed to recognise every allowed type by its magic number (WebM's DocType sits furthest). */
const SNIFF_BYTES = 64;

function unsupported(declared: string | undefined): ContractError {
  return fail('UNSUPPORTED_MEDIA_TYPE', `Upload ${MEDIA_TYPE_NAMES.join(', ')}${declared ? `, not ${declared}` : ''}.`);
}

/**
 * Checks the first bytes against the declared type while they stream past: a file whose bytes are
 * not what its type says is refused before it is stored under a real name.
 */
async function* checkedAgainst(declared: MediaType, source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let head = new Uint8Array(0);
  let checked = false;
  for await (const chunk of source) {
    if (!checked) {
      head = Uint8Array.from([...head, ...chunk.subarray(0, SNIFF_BYTES - head.length)]);
      if (head.length >= SNIFF_BYTES) {
        checked = true;
        if (!bytesMatchMediaType(head, declared)) throw mismatch(declared);
      }
    }
    yield chunk;
  }
  if (!checked && !bytesMatchMediaType(head, declared)) throw mismatch(declared);
}

function mismatch(declared: MediaType): ContractError {
  return new ContractError(415, errorBody('UNSUPPORTED_MEDIA_TYPE', `The file's content is not ${declared}.`));
}

/**
 * Receives an upload (multipart field `file`, or a raw body of an allowed type), streams it into the
 * content-addressed media folder within its type's size limit, and says what it stored. The client's
 * file name is never used: the bytes are named by their hash.
 */
export interface ReceivedUpload {
  stored: StoredMedia;
  type: MediaType;
}

/** Multipart framing around the file (boundaries, part headers) that a Content-Length may add. */
const MULTIPART_OVERHEAD_BYTES = 16 * 1024;

/** @fastify/multipart's limit errors: more parts, fields or files than an upload may have. */
const PARTS_OVER_LIMIT: ReadonlySet<unknown> = new Set(['FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT', 'FST_FILES_LIMIT']);

/** The multipart parser's own refusals of a body that is not well-formed multipart (busboy's messages, @fastify/multipart's codes). */
const UNREADABLE_MULTIPART_CODES: ReadonlySet<unknown> = new Set(['FST_PROTO_VIOLATION', 'FST_INVALID_JSON_FIELD_ERROR', 'FST_MP_PREMATURE_CLOSE']);
const UNREADABLE_MULTIPART_MESSAGE =
  /^Multipart: Boundary not found$|^Unexpected end of multipart data$|terminated early due to unexpected end of multipart data$/;

function isUnreadableMultipart(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return UNREADABLE_MULTIPART_CODES.has((error as { code?: unknown }).code) || UNREADABLE_MULTIPART_MESSAGE.test(error.message);
}

function tooManyParts(): ContractError {
  const message = `Send one file in the multipart field "file", with at most ${MULTIPART_FIELDS_MAX} other fields.`;
  return new ContractError(422, errorBody('VALIDATION_FAILED', message, { fields: [{ path: 'file', message }] }), { connection: 'close' });
}

function tooLarge(declared: MediaType, limit: number): ContractError {
  return new ContractError(413, errorBody('PAYLOAD_TOO_LARGE', `A ${declared} file may be at most ${limit} bytes.`, { limit_bytes: limit }), {
    connection: 'close',
  });
}

export function budgetReached(error: MediaBudgetError): ContractError {
  return new ContractError(
    503,
    errorBody(
      'UNAVAILABLE',
      `The station's media storage is full (budget ${formatMiB(error.budgetBytes)} MiB reached). Ask the operator to raise RETURNS_STATION_MEDIA_BUDGET_MB or remove old media.`,
      {
        reason: 'media_budget_reached',
        budget_bytes: error.budgetBytes,
      },
    ),
    { connection: 'close' },
  );
}

function formatMiB(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(0);
}

/** What can be refused before a byte is read: a declared length over the type's limit or the budget. */
function checkDeclaredLength(request: FastifyRequest, store: StationStore, declared: MediaType | null, overhead: number): void {
  const length = Number(request.headers['content-length']);
  if (!Number.isFinite(length)) return;
  if (declared) {
    const limit = MEDIA_TYPES[declared].maxBytes;
    if (length > limit + overhead) throw tooLarge(declared, limit);
  }
  try {
    store.media.assertRoomFor(Math.max(0, length - overhead));
  } catch (error) {
    if (error instanceof MediaBudgetError) throw budgetReached(error);
    throw error;
  }
}

export async function receiveUpload(request: FastifyRequest, store: StationStore): Promise<ReceivedUpload> {
  if (request.isMultipart()) {
    checkDeclaredLength(request, store, null, MULTIPART_OVERHEAD_BYTES);
    return receiveMultipart(request, store);
  }
  const declared = parseMediaContentType(request.headers['content-type']);
  if (!declared) throw unsupported(request.headers['content-type']);
  checkDeclaredLength(request, store, declared, 0);
  return storeChecked(store, declared, request.body as Readable, () => false);
}

/**
 * A multipart upload: the part named `file` (a file to the parser with or without a file name: see
 * routes/media.ts) is stored; other fields are read past, in any order. The whole body is read before
 * the answer, so the parts' order never changes it: too many parts, or a second file, is a 422 on
 * `file` whether it comes before the file or after it.
 */
async function receiveMultipart(request: FastifyRequest, store: StationStore): Promise<ReceivedUpload> {
  let upload: ReceivedUpload | undefined;
  try {
    for await (const part of request.parts({ limits: { files: 1, fileSize: Math.max(...MEDIA_TYPE_NAMES.map((t) => MEDIA_TYPES[t].maxBytes)) } })) {
      if (part.type !== 'file') continue;
      const declared = parseMediaContentType(part.mimetype);
      if (!declared) {
        part.file.resume();
        throw unsupported(part.mimetype);
      }
      upload = await storeChecked(store, declared, part.file, () => part.file.truncated);
    }
  } catch (error) {
    if (upload) await store.media.release(upload.stored.sha256);
    if (PARTS_OVER_LIMIT.has((error as { code?: unknown }).code)) throw tooManyParts();
    if (isUnreadableMultipart(error))
      throw new ContractError(400, errorBody('MALFORMED_JSON', 'The multipart body could not be read (boundary, part headers or framing).'), {
        connection: 'close',
      });
    throw error;
  }
  if (!upload)
    throw new ContractError(
      422,
      errorBody('VALIDATION_FAILED', 'Send the media in the multipart field "file".', { fields: [{ path: 'file', message: 'Required.' }] }),
    );
  return upload;
}

/** Streams the bytes to the media folder, checked against their declared type and its size limit. */
async function storeChecked(store: StationStore, declared: MediaType, source: AsyncIterable<Uint8Array>, truncated: () => boolean): Promise<ReceivedUpload> {
  const limit = MEDIA_TYPES[declared].maxBytes;
  try {
    const stored = await store.media.put(checkedAgainst(declared, source), { maxBytes: limit });
    if (truncated()) {
      await store.media.release(stored.sha256);
      throw new MediaTooLargeError(limit);
    }
    return { stored, type: declared };
  } catch (error) {
    // The rest of the body is left unread: close the connection after the answer, or it stays busy
    // (and holds up shutdown) until the connection timeout.
    if (error instanceof MediaTooLargeError) throw tooLarge(declared, limit);
    if (error instanceof MediaBudgetError) throw budgetReached(error);
    const refusal = error instanceof ContractError ? error : storageFailure(error);
    if (!refusal) throw error;
    refusal.headers.connection = 'close';
    throw refusal;
  }
}
