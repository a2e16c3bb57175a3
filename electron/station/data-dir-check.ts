import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LockHolder } from './data-dir-lock.ts';
import { STORE_FILE } from './store/index.ts';

/**
 * Why a data directory without a (non-empty) station database must not silently become a new
 * station: media files, a write-ahead log, or a holder that never stopped cleanly show a station
 * ran here, and its database went missing. Null when the directory looks unused.
 */
export function newStoreRefusal(dataDir: string, previousHolder: LockHolder | null): string | null {
  const reasons: string[] = [];
  const media = mediaNames(join(dataDir, 'media'));
  if (media.length > 0) reasons.push(`${join(dataDir, 'media')} holds ${media.length} media file${media.length === 1 ? '' : 's'}`);
  if (existsSync(join(dataDir, `${STORE_FILE}-wal`))) reasons.push(`${STORE_FILE}-wal (its write-ahead log) is there`);
  if (previousHolder)
    reasons.push(`process ${previousHolder.pid} (${previousHolder.command}, since ${previousHolder.started_at}) held the directory and did not stop cleanly`);
  return reasons.length > 0 ? reasons.join(', and ') : null;
}

function mediaNames(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => /^[0-9a-f]{64}$/.test(name));
  } catch {
    return [];
  }
}
