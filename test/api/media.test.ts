import { Readable } from 'node:stream';
import { request as httpRequest } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaFileSchema } from '#shared/api/media.ts';
import { ReturnPackageSchema } from '#shared/api/return-packages.ts';
import { call, createPackage, createReturn, expectError, MEDIA_SAMPLE_TYPES, mediaFileNames, sampleMedia, startStation, type TestStation } from './support.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * Media files: each allowed type round-trips byte for byte through its capability URL, as a raw
 * body and as multipart; mismatched, oversized and unsupported files are refused and leave no file.
 */

let s: TestStation;
let packageId: number;
const A1 = '/api/v1/accounts/1';
const uploadPath = () => `${A1}/return_packages/${packageId}/media_files`;
const KIND: Record<string, string> = {
  'image/jpeg': 'image',
  'image/png': 'image',
  'image/webp': 'image',
  'video/mp4': 'video',
  'video/webm': 'video',
  'application/pdf': 'document',
};

function multipart(field: string, filename: string, type: string, content: Uint8Array) {
  const form = new FormData();
  form.append(field, new Blob([content], { type }), filename);
  return form;
}

async function uploadMultipart(form: FormData, token = s.account1) {
  const response = await fetch(`${s.origin}${uploadPath()}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? (JSON.parse(text) as unknown) : undefined };
}

async function fetchBytes(url: string) {
  const response = await fetch(url);
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

beforeAll(async () => {
  s = await startStation();
  const ret = await createReturn(s.origin, s.account1);
  packageId = (await createPackage(s.origin, s.account1, 1, ret.id)).id;
});
afterAll(async () => {
  await s.close();
});

describe('round trip', () => {
  it.each(MEDIA_SAMPLE_TYPES)('%s as a raw body', async (type) => {
    const content = sampleMedia(type, 7);
    const response = await call(s.origin, 'POST', uploadPath(), { token: s.account1, raw: content, headers: { 'content-type': type } });
    expect(response.status, response.text).toBe(201);
    const media = MediaFileSchema.strict().parse(response.json);
    expect(media.type).toBe(KIND[type]);
    expect(media.url.startsWith(`${s.origin}/media/`)).toBe(true);
    // A capability URL: no Authorization header needed.
    const { response: served, bytes } = await fetchBytes(media.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')?.split(';')[0]).toBe(type);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(bytes).equals(Buffer.from(content))).toBe(true);
    // The package lists it.
    const pkg = ReturnPackageSchema.parse((await call(s.origin, 'GET', `${A1}/return_packages/${packageId}`, { token: s.account1 })).json);
    expect(pkg.media_files).toContainEqual(media);
  });

  it.each(MEDIA_SAMPLE_TYPES)('%s as multipart field "file"', async (type) => {
    const content = sampleMedia(type, 13);
    const response = await uploadMultipart(multipart('file', `photo.${type.split('/')[1]}`, type, content));
    expect(response.status, response.text).toBe(201);
    const media = MediaFileSchema.strict().parse(response.json);
    expect(media.type).toBe(KIND[type]);
    const { response: served, bytes } = await fetchBytes(media.url);
    expect(served.headers.get('content-type')?.split(';')[0]).toBe(type);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(bytes).equals(Buffer.from(content))).toBe(true);
  });

  it('a content type with parameters and odd case is accepted', async () => {
    const response = await call(s.origin, 'POST', uploadPath(), {
      token: s.account1,
      raw: sampleMedia('image/png', 21),
      headers: { 'content-type': 'Image/PNG; charset=binary' },
    });
    expect(response.status, response.text).toBe(201);
  });

  it('an unknown or guessed capability URL is a 404', async () => {
    expectError(await call(s.origin, 'GET', `/media/${'A'.repeat(43)}`), 'NOT_FOUND');
    expectError(await call(s.origin, 'GET', '/media/../../etc/passwd'), 'NOT_FOUND');
  });
});

describe('refusals leave no file behind', () => {
  it('PNG bytes declared as image/jpeg → 415 (raw and multipart)', async () => {
    const before = mediaFileNames(s.dataDir);
    const recordsBefore = await insidesOf(s.station.store).db.media_files.count();
    expectError(
      await call(s.origin, 'POST', uploadPath(), { token: s.account1, raw: sampleMedia('image/png', 31), headers: { 'content-type': 'image/jpeg' } }),
      'UNSUPPORTED_MEDIA_TYPE',
    );
    const viaForm = await uploadMultipart(multipart('file', 'x.jpg', 'image/jpeg', sampleMedia('image/png', 32)));
    expect(viaForm.status, viaForm.text).toBe(415);
    expect(mediaFileNames(s.dataDir)).toEqual(before);
    expect(await insidesOf(s.station.store).db.media_files.count()).toBe(recordsBefore);
  });

  it('a short file whose bytes match nothing, an empty file', async () => {
    const before = mediaFileNames(s.dataDir);
    expectError(
      await call(s.origin, 'POST', uploadPath(), { token: s.account1, raw: new Uint8Array([0xff, 0xd8]), headers: { 'content-type': 'image/jpeg' } }),
      'UNSUPPORTED_MEDIA_TYPE',
    );
    const empty = await call(s.origin, 'POST', uploadPath(), { token: s.account1, raw: new Uint8Array(0), headers: { 'content-type': 'image/png' } });
    expect([415, 422]).toContain(empty.status);
    expect(mediaFileNames(s.dataDir)).toEqual(before);
  });

  it('a type that is not allowed (image/gif, text/html, image/svg+xml) → 415', async () => {
    const before = mediaFileNames(s.dataDir);
    for (const type of ['image/gif', 'text/html', 'image/svg+xml', 'application/octet-stream']) {
      const response = await call(s.origin, 'POST', uploadPath(), { token: s.account1, raw: 'GIF89a<svg onload=alert(1)>', headers: { 'content-type': type } });
      expectError(response, 'UNSUPPORTED_MEDIA_TYPE');
      const form = await uploadMultipart(multipart('file', 'x', type, new TextEncoder().encode('GIF89a')));
      expect(form.status, `${type} multipart: ${form.text}`).toBe(415);
    }
    expect(mediaFileNames(s.dataDir)).toEqual(before);
  });

  it('a multipart upload in another field than "file" → 422', async () => {
    const response = await uploadMultipart(multipart('photo', 'x.png', 'image/png', sampleMedia('image/png', 41)));
    expectError(response as never, 'VALIDATION_FAILED');
  });

  it('an image over 25 MiB → 413 with limit_bytes, and no file (streamed)', async () => {
    const before = mediaFileNames(s.dataDir);
    const limit = 25 * 1024 * 1024;
    const head = sampleMedia('image/png', 51);
    const chunk = Buffer.alloc(1024 * 1024, 7);
    let sent = 0;
    const body = Readable.from(
      (function* () {
        yield Buffer.from(head);
        sent += head.length;
        while (sent <= limit + 1024) {
          yield chunk;
          sent += chunk.length;
        }
      })(),
    );
    const url = new URL(`${s.origin}${uploadPath()}`);
    const result = await new Promise<{ status: number; text: string; connection?: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { authorization: `Bearer ${s.account1}`, 'content-type': 'image/png' },
        },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8'), connection: res.headers.connection }));
        },
      );
      // The server may answer and close before the whole body is sent.
      req.on('error', (error) => (sent > limit ? resolve({ status: -1, text: String(error) }) : reject(error)));
      body.pipe(req);
    });
    expect(result.status, result.text).toBe(413);
    expect(JSON.parse(result.text)).toMatchObject({ error_code: 'PAYLOAD_TOO_LARGE', details: { limit_bytes: limit } });
    // The server stopped reading the body: it must not keep the connection (it would hang until a timeout).
    expect(result.connection).toBe('close');
    expect(mediaFileNames(s.dataDir)).toEqual(before);
  }, 60_000);

  it('a multipart image over 25 MiB → 413, and no file', async () => {
    const before = mediaFileNames(s.dataDir);
    const big = new Uint8Array(25 * 1024 * 1024 + 10);
    big.set(sampleMedia('image/png', 61));
    const response = await uploadMultipart(multipart('file', 'big.png', 'image/png', big));
    expect(response.status, response.text).toBe(413);
    expect(response.json).toMatchObject({ error_code: 'PAYLOAD_TOO_LARGE', details: { limit_bytes: 25 * 1024 * 1024 } });
    expect(mediaFileNames(s.dataDir)).toEqual(before);
  }, 60_000);

  it('a multipart filename is never used as a path', async () => {
    const content = sampleMedia('image/png', 71);
    for (const name of ['../../etc/passwd', '..\\..\\evil.png', '/tmp/evil.png', 'evil\u0000.png']) {
      const response = await uploadMultipart(multipart('file', name, 'image/png', content));
      expect(response.status, response.text).toBe(201);
      const media = MediaFileSchema.parse(response.json);
      expect(media.url).toMatch(/\/media\/[A-Za-z0-9_-]{43}$/);
    }
    expect(existsSync(join(s.dataDir, '..', 'evil.png'))).toBe(false);
    expect(existsSync(join(s.dataDir, 'etc'))).toBe(false);
    // Every stored file is named by its content hash.
    for (const name of mediaFileNames(s.dataDir)) expect(name).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a media upload on another account's package or an unknown package stores nothing", async () => {
    const before = mediaFileNames(s.dataDir);
    const ret2 = await createReturn(s.origin, s.account2);
    const pkg2 = await createPackage(s.origin, s.account2, 2, ret2.id);
    expectError(
      await call(s.origin, 'POST', `${A1}/return_packages/${pkg2.id}/media_files`, {
        token: s.account1,
        raw: sampleMedia('image/png', 81),
        headers: { 'content-type': 'image/png' },
      }),
      'NOT_FOUND',
    );
    expectError(
      await call(s.origin, 'POST', `${A1}/return_packages/99999/media_files`, {
        token: s.account1,
        raw: sampleMedia('image/png', 82),
        headers: { 'content-type': 'image/png' },
      }),
      'NOT_FOUND',
    );
    expect(mediaFileNames(s.dataDir)).toEqual(before);
  });
});

describe('delete', () => {
  const upload = async (content: Uint8Array) => {
    const response = await call(s.origin, 'POST', uploadPath(), { token: s.account1, raw: content, headers: { 'content-type': 'application/pdf' } });
    expect(response.status, response.text).toBe(201);
    return MediaFileSchema.parse(response.json);
  };

  it('DELETE answers 204, removes the record, the bytes and the URL', async () => {
    const before = mediaFileNames(s.dataDir);
    const media = await upload(sampleMedia('application/pdf', 91));
    expect(mediaFileNames(s.dataDir).length).toBe(before.length + 1);
    const response = await call(s.origin, 'DELETE', `${uploadPath()}/${media.id}`, { token: s.account1 });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await fetch(media.url)).status).toBe(404);
    expect(mediaFileNames(s.dataDir)).toEqual(before);
    const pkg = ReturnPackageSchema.parse((await call(s.origin, 'GET', `${A1}/return_packages/${packageId}`, { token: s.account1 })).json);
    expect(pkg.media_files.some((m) => m.id === media.id)).toBe(false);
    expectError(await call(s.origin, 'DELETE', `${uploadPath()}/${media.id}`, { token: s.account1 }), 'NOT_FOUND');
  });

  it('shared bytes stay while another media file uses them', async () => {
    const content = sampleMedia('application/pdf', 92);
    const a = await upload(content);
    const b = await upload(content);
    expect(a.url).not.toBe(b.url);
    expect((await call(s.origin, 'DELETE', `${uploadPath()}/${a.id}`, { token: s.account1 })).status).toBe(204);
    expect((await fetch(a.url)).status).toBe(404);
    const { response, bytes } = await fetchBytes(b.url);
    expect(response.status).toBe(200);
    expect(Buffer.from(bytes).equals(Buffer.from(content))).toBe(true);
    const before = mediaFileNames(s.dataDir);
    expect((await call(s.origin, 'DELETE', `${uploadPath()}/${b.id}`, { token: s.account1 })).status).toBe(204);
    expect(mediaFileNames(s.dataDir).length).toBe(before.length - 1);
  });

  it('another account cannot delete the media file', async () => {
    const media = await upload(sampleMedia('application/pdf', 93));
    expectError(await call(s.origin, 'DELETE', `${uploadPath()}/${media.id}`, { token: s.account2 }), 'ACCOUNT_FORBIDDEN');
    expect((await fetch(media.url)).status).toBe(200);
  });
});

describe('idempotent uploads', () => {
  it('the same key and bytes replay; other bytes with the key → 409', async () => {
    const key = `upload-${Date.now()}`;
    const content = sampleMedia('image/webp', 101);
    const send = (bytes: Uint8Array) =>
      call(s.origin, 'POST', uploadPath(), { token: s.account1, raw: bytes, headers: { 'content-type': 'image/webp', 'idempotency-key': key } });
    const first = await send(content);
    const second = await send(content);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.json).toEqual(first.json);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expectError(await send(sampleMedia('image/webp', 102)), 'IDEMPOTENCY_KEY_REUSED');
  });
});
