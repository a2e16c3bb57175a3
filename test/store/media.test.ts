import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MediaTooLargeError, openMediaFiles } from '../../electron/station/media/index.ts';
import { tempDataDir } from './fixtures.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDataDir());
});
afterEach(() => cleanup());

it('stores bytes under their sha256, from a buffer or a stream, and removes them', async () => {
  const media = await openMediaFiles(join(dir, 'media'));
  const bytes = new TextEncoder().encode('%PDF-1.7 hello');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  expect(await media.put(bytes)).toEqual({ sha256, size: bytes.byteLength });
  async function* chunks() {
    yield bytes.subarray(0, 4);
    yield bytes.subarray(4);
  }
  expect(await media.put(chunks())).toEqual({ sha256, size: bytes.byteLength });
  expect(await readFile(media.path(sha256))).toEqual(Buffer.from(bytes));
  expect(await readdir(media.dir)).toEqual([sha256]);
  // Held by the two puts: only the second release lets the collector remove the unreferenced bytes.
  await media.release(sha256);
  expect(await media.exists(sha256)).toBe(true);
  await media.release(sha256);
  expect(await media.exists(sha256)).toBe(false);
});

it('leaves no file behind when a stream is over the limit, and clears temporary files of a crash', async () => {
  await writeFile(join(dir, '.tmp-crashed'), 'half a file');
  const media = await openMediaFiles(dir);
  expect(await readdir(dir)).toEqual([]);
  async function* big() {
    for (let i = 0; i < 10; i++) yield new Uint8Array(1024);
  }
  await expect(media.put(big(), { maxBytes: 4096 })).rejects.toBeInstanceOf(MediaTooLargeError);
  expect(await readdir(dir)).toEqual([]);
  expect(() => media.path('../etc/passwd')).toThrow();
});
