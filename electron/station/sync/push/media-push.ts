import { mediaFilesOf } from '../../domain/media-files.ts';
import { type MediaFile, type BoundTables, type ReadTables, type ReturnPackage, type UpstreamLink } from '../../store/index.ts';
import type { RoundReport, SyncContext } from '../sync-context.ts';
import { answerKind, type UpstreamAnswer, upstreamMessage } from '../upstream/answers.ts';
import { linkOf } from '../links/upstream-links.ts';
import { packageLinkMapSaver, subResourceUnsupported } from './package-link-maps.ts';
import { markChanged } from '../../domain/outbox.ts';
import { accountState } from '../account-state.ts';
import { recordedBeforeRelink } from '../links/relink.ts';

/*
 * A package's media go up after the package is linked and before its PATCH (docs/decisions/sync.md,
 * "Media"): the queue is the package's distinct content hashes the link has no upstream file for, so
 * each hash goes up once per package however many local records name those bytes. An upload is
 * marked before it is sent; after a lost answer (or a kill) the upstream package's unclaimed files
 * are read and one with the same sha256 is adopted instead of sending the bytes again. An upstream
 * that answers it has no media files (404/405/501) keeps them on the station for the account, says so
 * in the sync status, and the rest keeps syncing.
 */

type MediaLinks = NonNullable<UpstreamLink['media']>;

const STATION_MEDIA_TYPES: ReadonlySet<string> = new Set<MediaFile['type']>(['image', 'video', 'document']);

/** The words every report of kept media starts with (API, UI and `sync --once`). */
export const MEDIA_KEPT_LOCAL = 'media kept local: upstream has no media support';

/** One file per content hash of the package, the oldest record first. */
function byHash(files: MediaFile[]): Map<string, MediaFile> {
  const hashes = new Map<string, MediaFile>();
  for (const file of files) if (!hashes.has(file.sha256)) hashes.set(file.sha256, file);
  return hashes;
}

/** Whether the upstream has media of the account; false once it answered that it has none. */
async function mediaSupported(t: Pick<ReadTables, 'sync_state'>, accountId: number): Promise<boolean> {
  return !(await accountState(t, accountId)).media_unsupported;
}

/** Whether the package has media the upstream has not taken (false when it takes none). */
export async function mediaUnsent(t: ReadTables, pkg: ReturnPackage, link: UpstreamLink): Promise<boolean> {
  if (!(await mediaSupported(t, pkg.account_id))) return false;
  const map = link.media ?? {};
  const files = await mediaFilesOf(t, pkg.id);
  const hashes = byHash(files);
  if (Object.keys(map).some((sha256) => !hashes.has(sha256))) return true;
  return [...hashes.keys()].some((sha256) => !map[sha256]?.upstream_id && !keptElsewhere(files, sha256));
}

/**
 * Bytes this station never held: every record of the hash names a site's hub's copy (`remote_url`).
 * After a relink such a photo goes up only if it is found upstream (adopted); a hub lost with its
 * machine took the bytes with it, and nothing here can send them (docs/decisions/site-promote.md).
 */
function keptElsewhere(files: readonly MediaFile[], sha256: string): boolean {
  return files.every((file) => file.sha256 !== sha256 || file.remote_url !== undefined);
}

export type MediaOutcome = { ok: true } | { ok: false; answer: UpstreamAnswer };

/** Uploads the package's new hashes and removes the ones no local record names any more; stops at the first refusal. */
export async function pushMedia(sc: SyncContext, pkg: ReturnPackage, link: UpstreamLink, report: RoundReport): Promise<MediaOutcome> {
  if (!(await mediaSupported(sc.store.tables, pkg.account_id))) return { ok: true };
  const url = `${sc.client.packagesUrl(pkg.account_id, link.upstream_id)}/media_files`;
  const hashes = byHash(await mediaFilesOf(sc.store.tables, pkg.id));
  const map: MediaLinks = { ...(link.media ?? {}) };
  const saveMedia = packageLinkMapSaver(sc, pkg, 'media');
  const save = (sha256: string, state: MediaLinks[string] | null) =>
    saveMedia((media) => {
      if (state) media[sha256] = state;
      else Reflect.deleteProperty(media, sha256);
    });

  const account = await accountState(sc.store.tables, pkg.account_id);
  for (const [sha256, file] of hashes) {
    // A photo recorded before the station's links were dropped may be upstream already: looked for first.
    let state = map[sha256] ?? (recordedBeforeRelink(account, file.created_at) ? { upstream_id: null, attempted_at: account.relinked_at ?? null } : undefined);
    if (state?.upstream_id) continue;
    if (state?.attempted_at) {
      const adopted = await adoptMedia(sc, pkg, link, file, map);
      if (adopted !== null) {
        map[sha256] = state = { upstream_id: adopted, attempted_at: null };
        await save(sha256, state);
        report.adopted += 1;
        continue;
      }
    }
    if (!(await sc.store.media.exists(sha256))) continue; // the record went while the round ran; the next send sees it gone
    map[sha256] = { upstream_id: null, attempted_at: sc.clock.now() };
    await save(sha256, map[sha256]);
    const answer = await sc.client.send({
      method: 'POST',
      url,
      file: { path: sc.store.media.path(sha256), contentType: file.content_type, size: file.size },
      idempotencyKey: `returns-station-sync:${sc.instanceId}:media:${pkg.id}:${sha256}`,
      priority: 'push',
    });
    if (!answer) return { ok: true };
    if (answerKind(answer.status) !== 'ok') {
      if (await subResourceUnsupported(sc, pkg, link, answer)) {
        await keepMediaLocal(sc, pkg.account_id, answer);
        return { ok: true };
      }
      return { ok: false, answer };
    }
    const id = (answer.body as { id?: unknown } | null)?.id;
    if (typeof id !== 'number') return { ok: false, answer };
    map[sha256] = { upstream_id: id, attempted_at: null };
    await save(sha256, map[sha256]);
    report.media_uploaded += 1;
  }

  for (const [sha256, state] of Object.entries(map)) {
    if (hashes.has(sha256)) continue;
    if (state.upstream_id) {
      const answer = await sc.client.send({ method: 'DELETE', url: `${url}/${state.upstream_id}`, priority: 'push' });
      if (!answer) return { ok: true };
      if (answerKind(answer.status) !== 'ok' && answer.status !== 404) return { ok: false, answer };
    }
    await save(sha256, null);
  }
  return { ok: true };
}

/**
 * After a lost answer: an upstream file of the package that no local hash claims and whose bytes are
 * these (the upstream's media list carries no hash, so the candidates of the same kind are read).
 */
async function adoptMedia(sc: SyncContext, pkg: ReturnPackage, link: UpstreamLink, file: MediaFile, map: MediaLinks): Promise<number | null> {
  const answer = await sc.client.send({ method: 'GET', url: sc.client.packagesUrl(pkg.account_id, link.upstream_id), priority: 'push' });
  if (!answer || answerKind(answer.status) !== 'ok') return null;
  const upstreamFiles = (answer.body as { media_files?: Array<{ id?: unknown; url?: unknown; type?: unknown }> } | null)?.media_files ?? [];
  const claimed = new Set(Object.values(map).map((s) => s.upstream_id));
  for (const candidate of upstreamFiles) {
    if (typeof candidate.id !== 'number' || typeof candidate.url !== 'string' || claimed.has(candidate.id)) continue;
    // The spec shows no media types: only a type of this station's own words that differs rules a file out (a returns service may say `image/jpeg`); the bytes decide.
    if (typeof candidate.type === 'string' && STATION_MEDIA_TYPES.has(candidate.type) && candidate.type !== file.type) continue;
    if ((await sc.client.mediaHash(candidate.url, file.size)) === file.sha256) return candidate.id;
  }
  return null;
}

async function keepMediaLocal(sc: SyncContext, accountId: number, answer: UpstreamAnswer): Promise<void> {
  const message = `${MEDIA_KEPT_LOCAL} (${answer.status}: ${upstreamMessage(answer).message}); photos stay on the station and the rest keeps syncing.`;
  await sc.store.write(async (t) => {
    await t.sync_state.put({ ...(await accountState(t, accountId)), media_unsupported: { status: answer.status, message, at: sc.clock.now() } });
  });
}

/**
 * After the upstream settings change (a new upstream may have media): forget that it had none, and
 * queue every linked package whose media have not gone up, inside the caller's write.
 */
export async function retryKeptMedia(t: BoundTables, accountId: number, now: string): Promise<void> {
  const state = await t.sync_state.get(accountId);
  if (!state?.media_unsupported) return;
  await t.sync_state.put({ ...state, media_unsupported: null });
  // From the media side: a station holds far fewer files than packages.
  const packageIds = new Set((await t.media_files.all()).filter((m) => m.account_id === accountId).map((m) => m.return_package_id));
  for (const packageId of packageIds) {
    const [pkg, link] = await Promise.all([t.return_packages.get(packageId), linkOf(t, 'return_package', packageId)]);
    if (pkg && link && (await mediaUnsent(t, pkg, link))) await markChanged(t, 'return_package', pkg.id, accountId, now);
  }
}
