import { describe, expect, it } from 'vitest';
import { MEDIA_TYPES, MEDIA_TYPE_NAMES, bytesMatchMediaType, parseMediaContentType, sniffMediaType, type MediaType } from '../../shared/api/media.ts';

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const bytes = (...parts: (number[] | string)[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? ascii(p) : p)));

const SAMPLES: Record<MediaType, Uint8Array> = {
  'image/jpeg': bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF'),
  'image/png': bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 'IHDR'),
  'image/webp': bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '),
  'video/mp4': bytes([0, 0, 0, 0x20], 'ftypisom', [0, 0, 2, 0], 'isomiso2mp41'),
  'video/webm': bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], 'webm', [0x42, 0x87]),
  'application/pdf': bytes('%PDF-1.7\n%âãÏÓ'),
};

describe('sniffMediaType', () => {
  it.each(MEDIA_TYPE_NAMES)('recognises %s', (type) => {
    expect(sniffMediaType(SAMPLES[type])).toBe(type);
    expect(bytesMatchMediaType(SAMPLES[type], type)).toBe(true);
  });

  it.each(MEDIA_TYPE_NAMES.flatMap((a) => MEDIA_TYPE_NAMES.filter((b) => b !== a).map((b) => [a, b] as const)))(
    '%s bytes do not match declared %s',
    (actual, declared) => {
      expect(bytesMatchMediaType(SAMPLES[actual], declared)).toBe(false);
    },
  );

  it.each([
    ['empty', new Uint8Array()],
    ['truncated PNG', SAMPLES['image/png'].subarray(0, 7)],
    ['truncated JPEG', SAMPLES['image/jpeg'].subarray(0, 2)],
    ['RIFF but WAVE', bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt ')],
    ['HEIC image in an ftyp box', bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0], 'mif1heic')],
    ['Matroska (not WebM)', bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88], 'matroska')],
    ['GIF', bytes('GIF89a')],
    ['HTML', bytes('<!doctype html><script>')],
    ['SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg">')],
    ['PDF magic not at start', bytes(' %PDF-1.7')],
  ])('refuses %s', (_name, data) => {
    expect(sniffMediaType(data)).toBeNull();
  });
});

describe('media types table', () => {
  it('kinds and limits', () => {
    const MiB = 1024 * 1024;
    for (const type of ['image/jpeg', 'image/png', 'image/webp'] as const) {
      expect(MEDIA_TYPES[type]).toMatchObject({ kind: 'image', maxBytes: 25 * MiB });
    }
    for (const type of ['video/mp4', 'video/webm'] as const) {
      expect(MEDIA_TYPES[type]).toMatchObject({ kind: 'video', maxBytes: 200 * MiB });
    }
    expect(MEDIA_TYPES['application/pdf']).toMatchObject({ kind: 'document', maxBytes: 25 * MiB });
  });

  it.each([
    ['image/jpeg', 'image/jpeg'],
    ['Image/PNG; charset=binary', 'image/png'],
    [' application/pdf ', 'application/pdf'],
    ['image/gif', null],
    ['image/svg+xml', null],
    ['text/plain', null],
    ['', null],
    [undefined, null],
  ] as const)('Content-Type %j → %j', (header, expected) => {
    expect(parseMediaContentType(header)).toBe(expected);
  });
});
