import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleMedia } from '../api/support.ts';
import { startStation } from '../support/station-process.ts';

/*
 * A photo keeps the time it was taken (`captured_at`, given with its upload), not the time it reached
 * the station: over the API of a real `serve`, bad times refused with nothing stored, and across a
 * stop and start on the same data directory.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Media {
  id: number;
  created_at: string;
  captured_at: string | null;
}

describe('a media file keeps the time it was taken', () => {
  it('takes captured_at with the upload (raw or multipart), refuses a time that cannot be right, and keeps it across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'media-captured-'));
    dirs.push(dir);
    let station = await startStation({ dataDir: dir, args: ['--demo'] });
    const auth = () => ({ authorization: `Bearer ${station.stationToken}` });
    const lookup = (await (await fetch(`${station.origin}/api/v1/station/lookup?code=1ZDEMO0000000001`, { headers: auth() })).json()) as {
      packages: Array<{ id: number; account_id: number }>;
    };
    const [pkg] = lookup.packages;
    if (!pkg) throw new Error('the demo package is missing');
    const path = `/api/v1/accounts/${pkg.account_id}/return_packages/${pkg.id}`;
    const upload = async (query: string, body: Blob | FormData | Uint8Array, headers: Record<string, string> = { 'content-type': 'image/png' }) => {
      const answer = await fetch(`${station.origin}${path}/media_files${query}`, { method: 'POST', headers: { ...auth(), ...headers }, body });
      return { status: answer.status, json: (await answer.json()) as Record<string, unknown> };
    };
    // What a restart must keep (the URL's origin is the port of that start).
    const mediaOf = async () =>
      ((await (await fetch(`${station.origin}${path}`, { headers: auth() })).json()) as { media_files: Media[] }).media_files.map(
        ({ id, created_at, captured_at }) => ({ id, created_at, captured_at }),
      );

    // Taken 20 minutes ago on a terminal two hours east of UTC, sent only now: stored in UTC, as taken.
    const takenAt = new Date(Date.now() - 20 * 60_000);
    const local = new Date(takenAt.getTime() + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    const raw = await upload(`?captured_at=${encodeURIComponent(local)}`, Buffer.from(sampleMedia('image/png', 1)));
    expect(raw.status, JSON.stringify(raw.json)).toBe(201);
    expect(raw.json.captured_at).toBe(takenAt.toISOString());
    expect(Date.parse(String(raw.json.created_at)) - takenAt.getTime()).toBeGreaterThanOrEqual(20 * 60_000 - 1000);

    const form = new FormData();
    form.append('file', new Blob([Buffer.from(sampleMedia('image/jpeg', 2))], { type: 'image/jpeg' }), 'photo.jpg');
    const multipartAt = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const multipart = await upload(`?captured_at=${multipartAt}`, form, {});
    expect(multipart.status, JSON.stringify(multipart.json)).toBe(201);
    expect(multipart.json.captured_at).toBe(multipartAt);
    // Not said: not known.
    const untimed = await upload('', Buffer.from(sampleMedia('image/png', 3)));
    expect(untimed.json.captured_at).toBeNull();

    // The same Idempotency-Key: the same time answers again; another time is another request.
    const keyed = (at: string) =>
      upload(`?captured_at=${at}`, Buffer.from(sampleMedia('image/png', 4)), { 'content-type': 'image/png', 'idempotency-key': 'photo-4' });
    const first = await keyed(multipartAt);
    expect(first.status).toBe(201);
    expect((await keyed(multipartAt)).json.id).toBe(first.json.id);
    expect((await keyed(takenAt.toISOString())).json.error_code).toBe('IDEMPOTENCY_KEY_REUSED');

    const before = await mediaOf();
    expect(before).toHaveLength(4);
    for (const [at, status, code, why] of [
      // A time the station's clock rules out (a rule that moves with the clock: 422).
      [new Date(Date.now() + 3_600_000).toISOString(), 422, 'VALIDATION_FAILED', /captured_at must be between/],
      [new Date(Date.now() - 400 * 86_400_000).toISOString(), 422, 'VALIDATION_FAILED', /captured_at must be between/],
      // Not a time with its offset (the query's form: 400).
      ['yesterday', 400, 'INVALID_QUERY', /./],
      ['2026-11-27T10:00:00', 400, 'INVALID_QUERY', /./],
    ] as const) {
      const refused = await upload(`?captured_at=${encodeURIComponent(at)}`, Buffer.from(sampleMedia('image/png', 5)));
      expect(refused.status, at).toBe(status);
      expect(refused.json.error_code).toBe(code);
      const details = refused.json.details as { message: string; fields: Array<{ path: string }> };
      expect(details.fields.map((field) => field.path)).toEqual(['captured_at']);
      expect(details.message).toMatch(why);
    }
    expect((await upload('?taken=now', Buffer.from(sampleMedia('image/png', 5)))).status).toBe(400);
    expect(await mediaOf()).toEqual(before);

    // The OpenAPI document says what the station takes.
    const openapi = (await (await fetch(`${station.origin}/openapi.json`)).json()) as {
      paths: Record<string, { post?: { parameters?: Array<{ name: string; in: string }> } }>;
    };
    const uploadOperation = openapi.paths['/api/v1/accounts/{account_id}/return_packages/{id}/media_files']?.post;
    expect(uploadOperation?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'captured_at', in: 'query' })]));

    expect(await station.stop()).toBe(0);
    station = await startStation({ dataDir: dir });
    expect(await mediaOf()).toEqual(before);
    expect(before.map((media) => media.captured_at)).toEqual([takenAt.toISOString(), multipartAt, null, multipartAt]);
    expect(await station.stop()).toBe(0);
  }, 60_000);
});
