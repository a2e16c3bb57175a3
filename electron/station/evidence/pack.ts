import { type FileHandle, open } from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { EvidenceFacts, EvidenceMedia } from '../domain/evidence.ts';
import type { MediaFiles } from '../media/index.ts';
import { evidencePdf } from './pdf.ts';

/*
 * An evidence pack's files, opened before a byte is sent: a photo deleted (and its bytes collected)
 * while the pack streams is still read whole through its open handle, so a pack is never cut. The
 * zip (yazl) holds the PDF and every file of the package full size and as stored (`photos/…`,
 * `files/…`); nothing is compressed (photos and videos already are), and it streams file by file.
 */

export interface OpenedEvidence {
  facts: EvidenceFacts;
  /** The handle of each file whose bytes this station has, by media id. */
  handles: Map<number, FileHandle>;
}

/** Opens the bytes of the package's files this station holds (a file gone already is left out: the PDF says so). */
export async function openEvidence(facts: EvidenceFacts, media: Pick<MediaFiles, 'path'>): Promise<OpenedEvidence> {
  const handles = new Map<number, FileHandle>();
  for (const m of facts.media) {
    if (m.at_hub) continue;
    const handle = await open(media.path(m.sha256), 'r').catch(() => null);
    if (handle) handles.set(m.id, handle);
  }
  return { facts, handles };
}

async function closeAll(handles: Map<number, FileHandle>): Promise<void> {
  await Promise.all([...handles.values()].map((h) => h.close().catch(() => undefined)));
}

function reader(opened: OpenedEvidence): (m: EvidenceMedia) => Promise<Buffer | null> {
  return async (m) => {
    const handle = opened.handles.get(m.id);
    // Read from the start whatever was read before (the zip reads the same handle after the PDF).
    if (!handle) return null;
    const bytes = Buffer.alloc(m.size);
    const { bytesRead } = await handle.read(bytes, 0, m.size, 0);
    return bytesRead === m.size ? bytes : null;
  };
}

/** Closes the handles once `stream` is done, whether it ended, failed or the client went away. */
function closingWith<T extends Readable>(stream: T, handles: Map<number, FileHandle>): T {
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    void closeAll(handles);
  };
  stream.once('close', close);
  stream.once('end', close);
  stream.once('error', close);
  return stream;
}

/** The pack's PDF alone, as a stream. */
export function evidencePdfStream(opened: OpenedEvidence): Readable {
  return closingWith(evidencePdf(opened.facts, reader(opened)), opened.handles);
}

/** The pack as a zip stream: `evidence-<tracking>.pdf`, then each file this station holds, in the package's order. */
export function evidenceZipStream(opened: OpenedEvidence, pdfName: string): Readable {
  const zip = new ZipFile();
  const mtime = new Date(opened.facts.made_at);
  zip.addReadStream(evidencePdf(opened.facts, reader(opened)), pdfName, { compress: false, mtime });
  for (const m of opened.facts.media) {
    const handle = opened.handles.get(m.id);
    if (!handle) continue;
    // Each file from its own start, through the handle opened before the pack began; not closed by the read.
    zip.addReadStream(handle.createReadStream({ start: 0, autoClose: false }), m.file_name, {
      compress: false,
      size: m.size,
      mtime: new Date(m.captured_at ?? m.stored_at),
    });
  }
  zip.end();
  const out = new PassThrough();
  zip.on('error', (error: Error) => out.destroy(error));
  zip.outputStream.on('error', (error: Error) => out.destroy(error));
  zip.outputStream.pipe(out);
  return closingWith(out, opened.handles);
}
