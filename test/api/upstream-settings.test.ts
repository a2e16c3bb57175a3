import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startStation, type TestStation } from './support.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * `GET/POST /api/v1/station/upstream`: the upstream's two addresses as the returns service's spec
 * names them (`returns_url`, `base_url`), or `url` for a Returns Station; the view shows both
 * addresses without user-info and never the token; a bad body is refused field by field and changes
 * nothing. Nothing listens on 127.0.0.1:9: the sync these settings start finds the upstream offline.
 */

const PATH = '/api/v1/station/upstream';
let ts: TestStation;

beforeAll(async () => {
  ts = await startStation();
});
afterAll(async () => {
  await ts?.close();
});

const get = () => call(ts.origin, 'GET', PATH, { token: ts.stationToken });
const post = (body: unknown) => call(ts.origin, 'POST', PATH, { token: ts.stationToken, body });
const storedRow = async () => (await insidesOf(ts.station.ctx.store).db.station_meta.get('sync.upstream'))?.value;

describe('upstream settings', () => {
  it('shows none set as null addresses', async () => {
    const none = await get();
    expect(none.status).toBe(200);
    expect(none.json).toEqual({ returns_url: null, base_url: null, accounts: [], token_set: false });
  });

  it('takes url as a Returns Station: returns_url is it, base_url is it plus /api', async () => {
    const set = await post({ url: 'http://127.0.0.1:9/station/', token: 'shorthand-secret', accounts: [3, 3] });
    expect(set.status, set.text).toBe(200);
    const view = { returns_url: 'http://127.0.0.1:9/station', base_url: 'http://127.0.0.1:9/station/api', accounts: [3], token_set: true };
    expect(set.json).toEqual(view);
    expect((await get()).json).toEqual(view);
    expect(await storedRow()).toEqual({
      returns_url: 'http://127.0.0.1:9/station',
      base_url: 'http://127.0.0.1:9/station/api',
      token: 'shorthand-secret',
      accounts: [3],
    });
  });

  it('takes returns_url and base_url on different paths; user-info is kept for sync and never shown', async () => {
    const set = await post({
      returns_url: 'http://clerk:pa55word@127.0.0.1:9/manual//',
      base_url: 'http://127.0.0.1:9/services/returns-api/',
      token: 'pair-secret',
      accounts: [1, 2],
    });
    expect(set.status, set.text).toBe(200);
    const view = { returns_url: 'http://127.0.0.1:9/manual', base_url: 'http://127.0.0.1:9/services/returns-api', accounts: [1, 2], token_set: true };
    expect(set.json).toEqual(view);
    const shown = await get();
    expect(shown.json).toEqual(view);
    for (const text of [set.text, shown.text, (await call(ts.origin, 'GET', '/api/v1/station/sync', { token: ts.stationToken })).text]) {
      expect(text).not.toContain('pa55word');
      expect(text).not.toContain('clerk');
      expect(text).not.toContain('pair-secret');
    }
    expect(await storedRow()).toEqual({
      returns_url: 'http://clerk:pa55word@127.0.0.1:9/manual',
      base_url: 'http://127.0.0.1:9/services/returns-api',
      token: 'pair-secret',
      accounts: [1, 2],
    });
  });

  it('refuses bad bodies field by field and changes nothing', async () => {
    const before = (await get()).json;
    const rowBefore = await storedRow();
    const ok = { token: 't', accounts: [1] };
    const cases: Array<[string, unknown, Array<{ path: string; message: string | RegExp }>]> = [
      ['returns_url alone', { ...ok, returns_url: 'http://127.0.0.1:9/r' }, [{ path: 'base_url', message: 'Required with returns_url.' }]],
      ['base_url alone', { ...ok, base_url: 'http://127.0.0.1:9/b' }, [{ path: 'returns_url', message: 'Required with base_url.' }]],
      [
        'no address',
        ok,
        [
          { path: 'returns_url', message: /Required .*url for a Returns Station/ },
          { path: 'base_url', message: /Required .*url for a Returns Station/ },
        ],
      ],
      [
        'url with base_url',
        { ...ok, url: 'http://127.0.0.1:9', base_url: 'http://127.0.0.1:9/b' },
        [{ path: 'url', message: /either url .* or returns_url and base_url, not both/ }],
      ],
      [
        'url with both',
        { ...ok, url: 'http://127.0.0.1:9', returns_url: 'http://127.0.0.1:9/r', base_url: 'http://127.0.0.1:9/b' },
        [{ path: 'url', message: /not both/ }],
      ],
      ['url not http', { ...ok, url: 'ftp://127.0.0.1:9' }, [{ path: 'url', message: 'Must be an http:// or https:// URL.' }]],
      ['url not a URL', { ...ok, url: 'returns.example.com' }, [{ path: 'url', message: 'Must be an http:// or https:// URL.' }]],
      [
        'a query or a fragment',
        { ...ok, returns_url: 'http://127.0.0.1:9/r?x=1', base_url: 'http://127.0.0.1:9/b#top' },
        [
          { path: 'returns_url', message: /no query .* or fragment/ },
          { path: 'base_url', message: /no query .* or fragment/ },
        ],
      ],
      [
        'base_url bad, returns_url missing',
        { ...ok, base_url: 'javascript:alert(1)' },
        [
          { path: 'base_url', message: 'Must be an http:// or https:// URL.' },
          { path: 'returns_url', message: 'Required with base_url.' },
        ],
      ],
      ['empty token', { url: 'http://127.0.0.1:9', token: '', accounts: [1] }, [{ path: 'token', message: /Too small/ }]],
      ['no token', { url: 'http://127.0.0.1:9', accounts: [1] }, [{ path: 'token', message: 'Required.' }]],
      ['no accounts', { url: 'http://127.0.0.1:9', token: 't', accounts: [] }, [{ path: 'accounts', message: /Too small/ }]],
      ['account 0', { url: 'http://127.0.0.1:9', token: 't', accounts: [0] }, [{ path: 'accounts[0]', message: /Too small/ }]],
      [
        'an unknown field',
        { url: 'http://127.0.0.1:9', token: 't', accounts: [1], api_url: 'http://127.0.0.1:9' },
        [{ path: 'api_url', message: 'Unknown field.' }],
      ],
    ];
    for (const [what, body, fields] of cases) {
      const refused = await post(body);
      const details = expectError(refused, 'VALIDATION_FAILED') as { fields: Array<{ path: string; message: string }> };
      expect(
        details.fields.map((f) => f.path),
        what,
      ).toEqual(fields.map((f) => f.path));
      fields.forEach((field, i) =>
        expect(details.fields[i]?.message, `${what}: ${field.path}`).toMatch(
          field.message instanceof RegExp ? field.message : new RegExp(`^${field.message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
        ),
      );
    }
    expect((await get()).json).toEqual(before);
    expect(await storedRow()).toEqual(rowBefore);
  });

  it('publishes the rules in /openapi.json: either url or both addresses, and the view of both', async () => {
    const doc = (await call(ts.origin, 'GET', '/openapi.json')).json as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
            responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
          }
        >
      >;
    };
    const operation = doc.paths[PATH];
    const input = operation?.post?.requestBody?.content['application/json']?.schema;
    expect(input).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['token', 'accounts'],
      oneOf: [{ required: ['url'] }, { required: ['returns_url', 'base_url'] }],
      dependentRequired: { returns_url: ['base_url'], base_url: ['returns_url'] },
    });
    expect(Object.keys((input?.properties ?? {}) as object).sort()).toEqual(['accounts', 'base_url', 'returns_url', 'token', 'url']);
    const view = operation?.get?.responses['200']?.content?.['application/json']?.schema as { properties?: object; required?: string[] } | undefined;
    expect(Object.keys(view?.properties ?? {}).sort()).toEqual(['accounts', 'base_url', 'returns_url', 'token_set']);
  });
});
