import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { open, readdir, rename, rm, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrivateDir } from '../private-files.ts';
import { KeyedLock } from './keyed-lock.ts';

export interface StoredMedia {
  /** Lower-case hex; also the file's name. */
  sha256: string;
  size: number;
}

/** How full the media folder is: its own bytes against its budget, and the disk's free space. */
export interface MediaUsage {
  usedBytes: number;
  /** The media budget; null when unlimited. */
  budgetBytes: number | null;
  /** Free bytes on the disk that holds the media folder (for this user); null when unknown. */
  diskFreeBytes: number | null;
}

export interface MediaFilesOptions {
  /**
   * Whether a record names these bytes, committed or about to be. Bytes are only ever removed when
   * this says no and no upload holds them (see `put`).
   */
  isReferenced?: (sha256: string) => Promise<boolean>;
  /** Most bytes the folder may hold; an upload beyond it is refused with MediaBudgetError. */
  budgetBytes?: number | null;
}

/** Media bytes, content-addressed under one folder (`<dataDir>/media/<sha256>`). */
export interface MediaFiles {
  readonly dir: string;
  /**
   * Stores bytes (a buffer or a stream of chunks); resolves once they are durable under their name.
   * The bytes are held (never collected) until `release` is called with their hash: the caller
   * records them in the store first, then releases them.
   */
  put(data: Uint8Array | AsyncIterable<Uint8Array>, options?: { maxBytes?: number }): Promise<StoredMedia>;
  /** Ends the hold `put` took; unreferenced bytes are collected at once. Never rejects. */
  release(sha256: string): Promise<void>;
  /** Absolute path of stored bytes (whether or not they exist). */
  path(sha256: string): string;
  exists(sha256: string): Promise<boolean>;
  open(sha256: string): ReadStream;
  /** Removes the bytes if no record names them and no upload holds them; true when removed. */
  collect(sha256: string): Promise<boolean>;
  /** Collects every unreferenced file in the folder (at start and periodically). */
  sweep(): Promise<{ removed: number; freedBytes: number }>;
  /** Refuses early when `incomingBytes` more would not fit the budget. */
  assertRoomFor(incomingBytes: number): void;
  usage(): Promise<MediaUsage>;
}

export class MediaTooLargeError extends Error {
  readonly limitBytes: number;
  constructor(limitBytes: number) {
    super(`The media file is larger than ${limitBytes} bytes.`);
    this.name = 'MediaTooLargeError';
    this.limitBytes = limitBytes;
  }
}

/** The media budget (RETURNS_STATION_MEDIA_BUDGET_MB) would be exceeded. */
export class MediaBudgetError extends Error {
  readonly budgetBytes: number;
  readonly usedBytes: number;
  constructor(budgetBytes: number, usedBytes: number) {
    super(`The station's media budget of ${budgetBytes} bytes is reached (${usedBytes} bytes stored).`);
    this.name = 'MediaBudgetError';
    this.budgetBytes = budgetBytes;
    this.usedBytes = usedBytes;
  }
}

const SHA256 = /^[0-9a-f]{64}$/;
const TEMP_PREFIX = '.tmp-';

/**
 * Opens the media folder. Bytes are written to a temporary name, fsynced, renamed to their hash and
 * the folder fsynced: a crash leaves either nothing or the whole file under its real name. Temporary
 * files left by a crash are removed here.
 *
 * Why bytes can never vanish under a record: the rename that makes bytes visible under their hash
 * and the check-then-unlink of the collector run under one lock per hash, and `put` takes its hold
 * inside that lock. So the collector either runs before the rename (and the rename brings the bytes
 * back) or sees the hold and leaves them; a hold lasts until the upload's record is durable (or the
 * upload failed), after which `isReferenced` sees the record.
 */
export async function openMediaFiles(dir: string, options: MediaFilesOptions = {}): Promise<MediaFiles> {
  ensurePrivateDir(dir);
  let usedBytes = 0;
  for (const name of await readdir(dir)) {
    if (name.startsWith(TEMP_PREFIX)) await rm(join(dir, name), { force: true });
    else if (SHA256.test(name)) usedBytes += (await stat(join(dir, name))).size;
  }
  const isReferenced = options.isReferenced ?? (() => Promise.resolve(false));
  const budget = options.budgetBytes ?? null;
  const lock = new KeyedLock();
  const holds = new Map<string, number>();
  const pathOf = (sha256: string): string => {
    if (!SHA256.test(sha256)) throw new Error(`Not a sha256 media name: ${sha256}`);
    return join(dir, sha256);
  };
  const sizeOf = async (sha256: string): Promise<number | null> => {
    try {
      return (await stat(pathOf(sha256))).size;
    } catch {
      return null;
    }
  };
  const assertRoomFor = (incoming: number): void => {
    if (budget !== null && usedBytes + incoming > budget) throw new MediaBudgetError(budget, usedBytes);
  };

  const collect = (sha256: string): Promise<boolean> =>
    lock.run(sha256, async () => {
      if (holds.has(sha256)) return false;
      const referenced = await isReferenced(sha256);
      if (referenced || holds.has(sha256)) return false;
      const size = await sizeOf(sha256);
      if (size === null) return false;
      await rm(pathOf(sha256), { force: true });
      await syncDir(dir);
      usedBytes -= size;
      return true;
    });

  return {
    dir,
    async put(data, putOptions = {}) {
      assertRoomFor(0);
      const temp = join(dir, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}`);
      const hash = createHash('sha256');
      let size = 0;
      const file = await open(temp, 'wx', 0o600);
      try {
        const chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> = data instanceof Uint8Array ? [data] : data;
        for await (const chunk of chunks) {
          size += chunk.byteLength;
          if (putOptions.maxBytes !== undefined && size > putOptions.maxBytes) throw new MediaTooLargeError(putOptions.maxBytes);
          assertRoomFor(size);
          hash.update(chunk);
          await file.write(chunk);
        }
        await file.sync();
      } catch (error) {
        await file.close();
        await rm(temp, { force: true });
        throw error;
      }
      await file.close();
      const sha256 = hash.digest('hex');
      await lock.run(sha256, async () => {
        holds.set(sha256, (holds.get(sha256) ?? 0) + 1);
        const before = await sizeOf(sha256);
        try {
          // Same content, same name: the rename replaces identical bytes atomically.
          await rename(temp, pathOf(sha256));
          await syncDir(dir);
        } catch (error) {
          releaseHold(holds, sha256);
          await rm(temp, { force: true });
          throw error;
        }
        if (before === null) usedBytes += size;
      });
      return { sha256, size };
    },
    async release(sha256) {
      releaseHold(holds, sha256);
      await collect(sha256).catch(() => false);
    },
    path: pathOf,
    async exists(sha256) {
      return (await sizeOf(sha256)) !== null;
    },
    open(sha256) {
      return createReadStream(pathOf(sha256));
    },
    collect,
    async sweep() {
      let removed = 0;
      let freedBytes = 0;
      for (const name of await readdir(dir)) {
        if (!SHA256.test(name)) continue;
        const size = (await sizeOf(name)) ?? 0;
        if (await collect(name)) {
          removed += 1;
          freedBytes += size;
        }
      }
      return { removed, freedBytes };
    },
    assertRoomFor,
    async usage() {
      const diskFreeBytes = await statfs(dir).then(
        (fs) => fs.bavail * fs.bsize,
        () => null,
      );
      return { usedBytes, budgetBytes: budget, diskFreeBytes };
    },
  };
}

function releaseHold(holds: Map<string, number>, sha256: string): void {
  const left = (holds.get(sha256) ?? 0) - 1;
  if (left > 0) holds.set(sha256, left);
  else holds.delete(sha256);
}

/** Makes a rename or unlink in `dir` durable (a no-op where directories cannot be opened, e.g. Windows). */
async function syncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot fsync a directory; NTFS journals the rename.
  } finally {
    await handle?.close();
  }
}

