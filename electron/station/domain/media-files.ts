import { randomBytes } from 'node:crypto';
import { CAPTURED_AT_MAX_AGE_DAYS, CAPTURED_AT_MAX_AHEAD_MS, type MediaKind, type MediaType } from '#shared/api/media.ts';
import { fail } from '../errors.ts';
import type { MediaFile, BoundTables, ReadTables, StoredMedia } from '../store/index.ts';
import type { DomainContext } from './context.ts';
import { packageOfAccount, touchPackage } from './packages.ts';

/** Fails early (before any byte is read) when the package is not the account's. */
export async function assertPackageExists(ctx: DomainContext, accountId: number, packageId: number): Promise<void> {
  await packageOfAccount(ctx.store.tables, accountId, packageId);
}

/**
 * Attaches bytes already stored (content-addressed, fsynced) to a package. The capability token is
 * 32 random bytes: the media URL is the permission to read it.
 */
export async function attachMedia(
  t: BoundTables,
  now: string,
  accountId: number,
  packageId: number,
  stored: StoredMedia,
  contentType: MediaType,
  kind: MediaKind,
  capturedAt: string | null = null,
): Promise<MediaFile> {
  const pkg = await packageOfAccount(t, accountId, packageId);
  const draft: Omit<MediaFile, 'id'> = {
    account_id: accountId,
    return_package_id: pkg.id,
    type: kind,
    content_type: contentType,
    sha256: stored.sha256,
    size: stored.size,
    url_token: randomBytes(32).toString('base64url'),
    created_at: now,
    captured_at: capturedAt,
  };
  const id = await t.media_files.add(draft as MediaFile);
  await touchPackage(t, pkg, now, false);
  return { ...draft, id };
}

/**
 * Refuses a capture time the station's clock says cannot be right (on `captured_at`): later than
 * a terminal's clock may run ahead, or older than any upload is kept (422, a rule no schema can say:
 * it moves with the clock; a malformed time is the query's 400).
 */
export function assertCaptureTime(capturedAt: string | undefined, now: string): void {
  if (capturedAt === undefined) return;
  const at = Date.parse(capturedAt);
  const clock = Date.parse(now);
  const earliest = clock - CAPTURED_AT_MAX_AGE_DAYS * 86_400_000;
  if (at > clock + CAPTURED_AT_MAX_AHEAD_MS || at < earliest) {
    const message = `captured_at must be between ${new Date(earliest).toISOString()} and ${new Date(clock + CAPTURED_AT_MAX_AHEAD_MS).toISOString()} (the station's clock: ${now}), got ${capturedAt}.`;
    throw fail('VALIDATION_FAILED', message, { fields: [{ path: 'captured_at', message }] });
  }
}

/**
 * Detaches a media file. Returns the hash of its bytes: the caller offers them to the collector once
 * the transaction is durable (file work cannot happen inside it); the collector keeps bytes that
 * another record or an upload in progress still names.
 */
export async function detachMedia(t: BoundTables, now: string, accountId: number, packageId: number, mediaId: number): Promise<string> {
  const pkg = await packageOfAccount(t, accountId, packageId);
  const media = await t.media_files.get(mediaId);
  if (!media || media.return_package_id !== pkg.id) throw fail('NOT_FOUND', `Return package ${pkg.id} has no media file ${mediaId}.`);
  await t.media_files.delete(mediaId);
  await touchPackage(t, pkg, now, false);
  return media.sha256;
}

export async function mediaFilesOf(tables: ReadTables, packageId: number): Promise<MediaFile[]> {
  // An index lists equal keys in primary-key order: the files come back in id order.
  return tables.media_files.ofPackage(packageId);
}

export async function mediaByUrlToken(tables: ReadTables, urlToken: string): Promise<MediaFile | undefined> {
  return tables.media_files.withUrlToken(urlToken);
}
