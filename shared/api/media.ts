import { z } from 'zod';
import { TimestampSchema } from './common.ts';

/*
 * Media files of a return package (docs/api-reference.md, Return packages: media files): allowed types, size limits and a
 * magic-number check so that the bytes match the declared type.
 */

export const MEDIA_KINDS = ['image', 'video', 'document'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

const MIB = 1024 * 1024;

/**
 * Other multipart fields an upload may carry besides `file` (a form's extra inputs), in any order;
 * they are read past, never used. Each is cut at MULTIPART_FIELD_BYTES.
 */
export const MULTIPART_FIELDS_MAX = 16;
export const MULTIPART_FIELD_BYTES = 1024;

export const MEDIA_TYPES = {
  'image/jpeg': { kind: 'image', maxBytes: 25 * MIB, extension: 'jpg' },
  'image/png': { kind: 'image', maxBytes: 25 * MIB, extension: 'png' },
  'image/webp': { kind: 'image', maxBytes: 25 * MIB, extension: 'webp' },
  'video/mp4': { kind: 'video', maxBytes: 200 * MIB, extension: 'mp4' },
  'video/webm': { kind: 'video', maxBytes: 200 * MIB, extension: 'webm' },
  'application/pdf': { kind: 'document', maxBytes: 25 * MIB, extension: 'pdf' },
} as const satisfies Record<string, { kind: MediaKind; maxBytes: number; extension: string }>;

export type MediaType = keyof typeof MEDIA_TYPES;
export const MEDIA_TYPE_NAMES = Object.keys(MEDIA_TYPES) as [MediaType, ...MediaType[]];

export function isMediaType(value: string): value is MediaType {
  return Object.hasOwn(MEDIA_TYPES, value);
}

/**
 * The bare media type of a `Content-Type` header value, lower-cased, parameters dropped
 * (`Image/JPEG; charset=x` → `image/jpeg`); null when it is not an allowed media type.
 */
export function parseMediaContentType(contentType: string | null | undefined): MediaType | null {
  if (!contentType) return null;
  const bare = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return isMediaType(bare) ? bare : null;
}

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

function ascii(text: string): number[] {
  return Array.from(text, (c) => c.charCodeAt(0));
}

/** ISO-BMFF major brands of still images (HEIF/AVIF), which also start with an `ftyp` box. */
const IMAGE_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif', 'avis']);

/** The EBML DocType `webm` (element id 0x4282, then a size byte, then the bytes). */
function hasWebmDocType(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 64);
  for (let i = 4; i + 7 <= end; i++) {
    if (bytes[i] === 0x42 && bytes[i + 1] === 0x82 && startsWith(bytes, ascii('webm'), i + 3)) return true;
  }
  return false;
}

/**
 * The allowed media type the bytes are, by magic number; null when none matches.
 *
 * - JPEG `FF D8 FF`; PNG `89 50 4E 47 0D 0A 1A 0A`; WebP `RIFF` ???? `WEBP`; PDF `%PDF-`
 * - MP4: an `ftyp` box at offset 4 whose major brand is not a HEIF/AVIF image brand
 * - WebM: EBML `1A 45 DF A3` with DocType `webm` in the header (plain Matroska is refused)
 */
export function sniffMediaType(bytes: Uint8Array): MediaType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, ascii('%PDF-'))) return 'application/pdf';
  if (startsWith(bytes, ascii('ftyp'), 4) && bytes.length >= 12) {
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    return IMAGE_BRANDS.has(brand) ? null : 'video/mp4';
  }
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3]) && hasWebmDocType(bytes)) return 'video/webm';
  return null;
}

/** Whether the first bytes of a file match its declared media type. */
export function bytesMatchMediaType(bytes: Uint8Array, declared: MediaType): boolean {
  return sniffMediaType(bytes) === declared;
}

export const MediaTypeSchema = z.enum(MEDIA_TYPE_NAMES);
export const MediaKindSchema = z.enum(MEDIA_KINDS);

/*
 * When a photo was taken, given with its upload (`captured_at`): the dock's upload queue may send it
 * minutes or days later (the station unreachable, the page reloaded). A station addition beside the
 * spec's `created_at`, which stays when the station stored it. Bounded around the station's clock: a
 * terminal's clock may run a little ahead, and a kept upload is not older than a year.
 */
export const CAPTURED_AT_MAX_AHEAD_MS = 10 * 60_000;
export const CAPTURED_AT_MAX_AGE_DAYS = 366;

/** The upload's query: only `captured_at`, an ISO 8601 time with its offset (stored in UTC). */
export const MediaUploadQuerySchema = z.strictObject({
  captured_at: z.iso
    .datetime({ offset: true })
    .transform((text) => new Date(text).toISOString())
    .optional()
    .describe(
      `When the file was taken (ISO 8601 with offset; stored in UTC, answered as \`captured_at\`). At most ${CAPTURED_AT_MAX_AHEAD_MS / 60_000} minutes after and ${CAPTURED_AT_MAX_AGE_DAYS} days before the station's clock. Left out: not known (null).`,
    ),
});

/** A media file as answered (`POST .../media_files`, element of a package's `media_files`). */
export const MediaFileSchema = z.object({
  id: z.int(),
  /** Capability URL under `{media_url}`; works in `<img src>` without a header. */
  url: z.string(),
  type: MediaKindSchema,
  /** When the station stored it. */
  created_at: TimestampSchema,
  /** Station addition: when it was taken, as its upload said (`captured_at`); null when it did not say. */
  captured_at: TimestampSchema.nullable(),
});
export type MediaFile = z.infer<typeof MediaFileSchema>;
