import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface StoredMedia {
  /** Lower-case hex; also the file's name. */
  sha256: string;
  size: number;
}

/** Media bytes, content-addressed under one folder (`<dataDir>/media/<sha256>`). */
export interface MediaFiles {
  readonly dir: string;
  /** Stores bytes (a buffer or a stream of chunks); resolves once they are durable under their name. */
  put(data: Uint8Array | AsyncIterable<Uint8Array>, options?: { maxBytes?: number }): Promise<StoredMedia>;
  /** Absolute path of stored bytes (whether or not they exist). */
  path(sha256: string): string;
  exists(sha256: string): Promise<boolean>;
  open(sha256: string): ReadStream;
  /** Deletes the bytes; call when no media_files record refers to them any more. */
  remove(sha256: string): Promise<void>;
}

export class MediaTooLargeError extends Error {
  readonly limitBytes: number;
  constructor(limitBytes: number) {
    super(`The media file is larger than ${limitBytes} bytes.`);
    this.name = 'MediaTooLargeError';
    this.limitBytes = limitBytes;
  }
}

const SHA256 = /^[0-9a-f]{64}$/;
const TEMP_PREFIX = '.tmp-';

/**
 * Opens the media folder. Bytes are written to a temporary name, fsynced, renamed to their hash and
 * the folder fsynced: a crash leaves either nothing or the whole file under its real name. Temporary
 * files left by a crash are removed here.
 */
export async function openMediaFiles(dir: string): Promise<MediaFiles> {
  await mkdir(dir, { recursive: true });
  for (const name of await readdir(dir)) {
    if (name.startsWith(TEMP_PREFIX)) await rm(join(dir, name), { force: true });
  }
  const pathOf = (sha256: string): string => {
    if (!SHA256.test(sha256)) throw new Error(`Not a sha256 media name: ${sha256}`);
    return join(dir, sha256);
  };

  return {
    dir,
    async put(data, options = {}) {
      const temp = join(dir, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}`);
      const hash = createHash('sha256');
      let size = 0;
      const file = await open(temp, 'wx');
      try {
        const chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> = data instanceof Uint8Array ? [data] : data;
        for await (const chunk of chunks) {
          size += chunk.byteLength;
          if (options.maxBytes !== undefined && size > options.maxBytes) throw new MediaTooLargeError(options.maxBytes);
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
      // Same content, same name: the rename replaces identical bytes atomically.
      await rename(temp, pathOf(sha256));
      await syncDir(dir);
      return { sha256, size };
    },
    path: pathOf,
    async exists(sha256) {
      try {
        return (await stat(pathOf(sha256))).isFile();
      } catch {
        return false;
      }
    },
    open(sha256) {
      return createReadStream(pathOf(sha256));
    },
    async remove(sha256) {
      await rm(pathOf(sha256), { force: true });
      await syncDir(dir);
    },
  };
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
