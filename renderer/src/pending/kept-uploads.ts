import type { KeptUpload, UploadKeeper } from '../media/upload-queue.ts';
import type { PendingDb } from './pending-db.ts';

/*
 * Photos waiting to upload, kept in the UI's IndexedDB (PendingDb) until the station stored them, so a
 * reload of the page uploads them instead of losing them. Writes go in call order (one promise's
 * callbacks run in order, and IndexedDB keeps the order of transactions on one table).
 */

export function keepUploadsIn(db: PendingDb | Promise<PendingDb>): UploadKeeper & { load(): Promise<KeptUpload[]> } {
  const ready = Promise.resolve(db);
  let seq = Date.now();
  return {
    put(upload) {
      const record = { ...upload, seq: seq++ };
      void ready.then((d) => d.uploads.put(record)).catch(() => undefined);
    },
    remove(id) {
      void ready.then((d) => d.uploads.delete(id)).catch(() => undefined);
    },
    async load() {
      try {
        const kept = await (await ready).uploads.orderBy('seq').toArray();
        return kept.map(({ id, accountId, packageId, blob, contentType, capturedAt }) => ({
          id,
          accountId,
          packageId,
          blob,
          contentType,
          capturedAt: capturedAt ?? null,
        }));
      } catch {
        return [];
      }
    },
  };
}
