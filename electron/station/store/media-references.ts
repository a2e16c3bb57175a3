import type { DatabaseSync } from 'node:sqlite';
import type { StationDexie } from './schema.ts';

/**
 * Whether any media record names these bytes, in memory (committed or about to commit) or on disk
 * (committed, maybe deleted in memory by a write whose commit may still fail and be undone). The
 * media collector removes bytes only when both say no.
 */
export function mediaReferences(db: StationDexie, sqlite: DatabaseSync): (sha256: string) => Promise<boolean> {
  const onDisk = sqlite.prepare(`SELECT 1 AS found FROM media_files WHERE json_extract(v, '$.sha256') = ? LIMIT 1`);
  return async (sha256) => {
    if ((await db.media_files.where('sha256').equals(sha256).count()) > 0) return true;
    return sqlite.isOpen && onDisk.get(sha256) !== undefined;
  };
}
