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
  return new MediaFolder(dir, usedBytes, options.isReferenced ?? (() => Promise.resolve(false)), options.budgetBytes ?? null);
}

class MediaFolder implements MediaFiles {
  private readonly lock = new KeyedLock();
  /** Uploads holding bytes by hash (a count: two uploads of the same bytes hold them twice). */
  private readonly holds = new Map<string, number>();

  readonly dir: string;
  private usedBytes: number;
  private readonly isReferenced: (sha256: string) => Promise<boolean>;
  private readonly budget: number | null;

  constructor(dir: string, usedBytes: number, isReferenced: (sha256: string) => Promise<boolean>, budget: number | null) {
    this.dir = dir;
    this.usedBytes = usedBytes;
    this.isReferenced = isReferenced;
    this.budget = budget;
  }

  async put(data: Uint8Array | AsyncIterable<Uint8Array>, options: { maxBytes?: number } = {}): Promise<StoredMedia> {
    this.assertRoomFor(0);
    const temp = join(this.dir, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}`);
    const { sha256, size } = await this.writeTemp(temp, data, options.maxBytes);
    await this.publish(temp, sha256, size);
    return { sha256, size };
  }

  async release(sha256: string): Promise<void> {
    releaseHold(this.holds, sha256);
    await this.collect(sha256).catch(() => false);
  }

  path(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`Not a sha256 media name: ${sha256}`);
    return join(this.dir, sha256);
  }

  async exists(sha256: string): Promise<boolean> {
    return (await this.sizeOf(sha256)) !== null;
  }

  open(sha256: string): ReadStream {
    return createReadStream(this.path(sha256));
  }

  collect(sha256: string): Promise<boolean> {
    return this.lock.run(sha256, async () => {
      if (this.holds.has(sha256)) return false;
      const referenced = await this.isReferenced(sha256);
      if (referenced || this.holds.has(sha256)) return false;
      const size = await this.sizeOf(sha256);
      if (size === null) return false;
      await rm(this.path(sha256), { force: true });
      await syncDir(this.dir);
      this.usedBytes -= size;
      return true;
    });
  }

  async sweep(): Promise<{ removed: number; freedBytes: number }> {
    let removed = 0;
    let freedBytes = 0;
    for (const name of await readdir(this.dir)) {
      if (!SHA256.test(name)) continue;
      const size = (await this.sizeOf(name)) ?? 0;
      if (await this.collect(name)) {
        removed += 1;
        freedBytes += size;
      }
    }
    return { removed, freedBytes };
  }

  assertRoomFor(incomingBytes: number): void {
    if (this.budget !== null && this.usedBytes + incomingBytes > this.budget) throw new MediaBudgetError(this.budget, this.usedBytes);
  }

  async usage(): Promise<MediaUsage> {
    const diskFreeBytes = await statfs(this.dir).then(
      (fs) => fs.bavail * fs.bsize,
      () => null,
    );
    return { usedBytes: this.usedBytes, budgetBytes: this.budget, diskFreeBytes };
  }

  /** Streams the bytes into a temporary file, hashing and bounding them on the way; fsynced. */
  private async writeTemp(temp: string, data: Uint8Array | AsyncIterable<Uint8Array>, maxBytes: number | undefined): Promise<StoredMedia> {
    const hash = createHash('sha256');
    let size = 0;
    const file = await open(temp, 'wx', 0o600);
    try {
      const chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> = data instanceof Uint8Array ? [data] : data;
      for await (const chunk of chunks) {
        size += chunk.byteLength;
        if (maxBytes !== undefined && size > maxBytes) throw new MediaTooLargeError(maxBytes);
        this.assertRoomFor(size);
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
    return { sha256: hash.digest('hex'), size };
  }

  /** Renames the temporary file to its hash and takes the upload's hold, both under the hash's lock. */
  private async publish(temp: string, sha256: string, size: number): Promise<void> {
    await this.lock.run(sha256, async () => {
      this.holds.set(sha256, (this.holds.get(sha256) ?? 0) + 1);
      const before = await this.sizeOf(sha256);
      try {
        // Same content, same name: the rename replaces identical bytes atomically.
        await rename(temp, this.path(sha256));
        await syncDir(this.dir);
      } catch (error) {
        releaseHold(this.holds, sha256);
        await rm(temp, { force: true });
        throw error;
      }
      if (before === null) this.usedBytes += size;
    });
  }

  private async sizeOf(sha256: string): Promise<number | null> {
    try {
      return (await stat(this.path(sha256))).size;
    } catch {
      return null;
    }
  }
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
