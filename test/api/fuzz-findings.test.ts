import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockDaySchema } from '#shared/api/dock-day.ts';
import { MediaFileSchema } from '#shared/api/media.ts';
import { call, createPackage, createReturn, expectError, rawCall, sampleMedia, startStation, type TestStation } from './support.ts';

/*
 * The three defects a fuzzer driven by /openapi.json found: dates before the year
 * 1000, multipart parts in another order or without a file name, and a method the station does not
 * know. The walk over the whole document is test/api/openapi-walk.test.ts.
 */

let s: TestStation;
let uploadPath: string;

beforeAll(async () => {
  s = await startStation();
  const ret = await createReturn(s.origin, s.account1);
  const pkg = await createPackage(s.origin, s.account1, 1, ret.id);
  uploadPath = `/api/v1/accounts/1/return_packages/${pkg.id}/media_files`;
});
afterAll(async () => {
  await s.close();
});

describe('a dock day before the year 1000 keeps its four digits', () => {
  it.each(['0195-06-06', '0001-01-01', '0000-02-29', '0099-12-31', '0999-12-31', '2026-02-28'])('%s', async (date) => {
    const day = await call(s.origin, 'GET', `/api/v1/station/dock-day?date=${date}`, { token: s.stationToken });
    expect(day.status, day.text).toBe(200);
    expect(DockDaySchema.parse(day.json).date).toBe(date);
    const csv = await call(s.origin, 'GET', `/api/v1/station/dock-day/receipts.csv?date=${date}`, { token: s.stationToken });
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="receipts-${date}.csv"`);
  });
});

describe('a multipart upload: the part named "file" is the upload, wherever it is and whatever its file name', () => {
  const upload = async (form: FormData) => {
    const response = await fetch(`${s.origin}${uploadPath}`, { method: 'POST', headers: { authorization: `Bearer ${s.account1}` }, body: form });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: text ? (JSON.parse(text) as unknown) : undefined };
  };
  const png = (seed: number) => new Blob([sampleMedia('image/png', seed)], { type: 'image/png' });

  it('another field before the file → 201, as after it', async () => {
    const before = new FormData();
    before.append('note', 'front door');
    before.append('file', png(501), 'a.png');
    const first = await upload(before);
    expect(first.status, first.text).toBe(201);
    MediaFileSchema.strict().parse(first.json);
    const after = new FormData();
    after.append('file', png(502), 'a.png');
    after.append('note', 'front door');
    expect((await upload(after)).status).toBe(201);
  });

  it('a file part without a file name → 201', async () => {
    const boundary = 'fuzz-boundary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"\r\nContent-Type: image/png\r\n\r\n`),
      Buffer.from(sampleMedia('image/png', 503)),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await rawCall(s.origin, {
      method: 'POST',
      path: uploadPath,
      headers: { authorization: `Bearer ${s.account1}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(response.status, response.text).toBe(201);
    MediaFileSchema.strict().parse(JSON.parse(response.text));
  });

  it('a "file" part that is text, not a media type → 415', async () => {
    const form = new FormData();
    form.append('file', 'just some text');
    expectError(await upload(form), 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('only other fields, or too many of them → 422 on "file"', async () => {
    const none = new FormData();
    none.append('note', 'no file here');
    const details = expectError(await upload(none), 'VALIDATION_FAILED');
    expect(details.fields).toEqual([{ path: 'file', message: expect.any(String) }]);
    const crowded = new FormData();
    for (let i = 0; i < 40; i++) crowded.append(`note${i}`, 'x');
    crowded.append('file', png(504), 'a.png');
    const refused = expectError(await upload(crowded), 'VALIDATION_FAILED');
    expect((refused.fields as Array<{ path: string }>)[0]?.path).toBe('file');
    // The same parts the other way round: the same answer.
    const crowdedAfter = new FormData();
    crowdedAfter.append('file', png(504), 'a.png');
    for (let i = 0; i < 40; i++) crowdedAfter.append(`note${i}`, 'x');
    expectError(await upload(crowdedAfter), 'VALIDATION_FAILED');
  });

  it('a body that is not multipart as it says → 400 MALFORMED_JSON, never a 500', async () => {
    for (const [type, body] of [
      ['multipart/form-data', 'no boundary'],
      ['multipart/form-data; boundary=x', 'no parts at all'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="file"\r\nContent-Type: image/png\r\n\r\n\x89PNG'],
    ]) {
      const response = await rawCall(s.origin, {
        method: 'POST',
        path: uploadPath,
        headers: { authorization: `Bearer ${s.account1}`, 'content-type': type ?? '', 'content-length': String(Buffer.byteLength(body ?? '')) },
        body,
      });
      expect({ status: response.status, code: (JSON.parse(response.text) as { error_code: string }).error_code }, `${type} ${body}`).toEqual({
        status: 400,
        code: 'MALFORMED_JSON',
      });
    }
  });

  it('two files in "file" → 422, in either order of the other parts', async () => {
    const two = new FormData();
    two.append('file', png(505), 'a.png');
    two.append('file', png(506), 'b.png');
    expectError(await upload(two), 'VALIDATION_FAILED');
  });
});

describe('a method the station does not know is a 404, body or none', () => {
  it.each(['QUERY', 'PROPFIND', 'SEARCH', 'OPTIONS', 'PUT'])('%s /api/v1/station', async (method) => {
    const bare = await rawCall(s.origin, { method, path: '/api/v1/station', headers: { authorization: `Bearer ${s.stationToken}` } });
    expect({ status: bare.status, code: (JSON.parse(bare.text) as { error_code: string }).error_code }, bare.text).toEqual({ status: 404, code: 'NOT_FOUND' });
    const withJson = await rawCall(s.origin, {
      method,
      path: '/api/v1/station',
      headers: { authorization: `Bearer ${s.stationToken}`, 'content-type': 'application/json', 'content-length': '7' },
      body: '{"a":1}',
    });
    expect({ status: withJson.status, code: (JSON.parse(withJson.text) as { error_code: string }).error_code }, withJson.text).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
  });
});
