import { describe, expect, it } from 'vitest';
import {
  ApiClient,
  ApiError,
  StationUnreachableError,
  errorBody,
  formatSseEvent,
  parseStationEvent,
  toQueryString,
  type StationEvent,
} from '../../shared/api/index.ts';
import { manualReturnBody, manualReturnRecord } from '../support/manual-return.ts';
import { NOW, samplePackage } from './fixtures.ts';

interface Call {
  url: string;
  init: RequestInit;
}

function fakeFetch(respond: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch = async (url: string, init: RequestInit = {}) => {
    const call = { url, init };
    calls.push(call);
    return respond(call);
  };
  return { fetch, calls };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const headerOf = (call: Call | undefined, name: string) => (call?.init.headers as Record<string, string> | undefined)?.[name];

describe('ApiClient requests', () => {
  it('builds URLs, sends the bearer token and parses the answer', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, { data: [], meta: { current_page: 2, total_pages: 0, total_count: 0, per_page: 10 } }));
    const client = new ApiClient({ baseUrl: 'http://127.0.0.1:4780/', token: 'secret', fetch });
    const page = await client.listPackages(5, { status: ['pending', 'in_transit'], page: 2, per_page: 10, tracking_number: 'a b' });
    expect(page.meta.current_page).toBe(2);
    expect(calls[0]?.url).toBe('http://127.0.0.1:4780/api/v1/accounts/5/return_packages?status=pending%2Cin_transit&page=2&per_page=10&tracking_number=a+b');
    expect(calls[0]?.init.method).toBe('GET');
    expect(headerOf(calls[0], 'Authorization')).toBe('Bearer secret');
    expect(headerOf(calls[0], 'Accept')).toBe('application/json');
  });

  it('POSTs JSON with an Idempotency-Key', async () => {
    const created = { ...manualReturnRecord() };
    const { fetch, calls } = fakeFetch(() => json(200, created));
    const client = new ApiClient({ baseUrl: 'http://s', token: 't', fetch });
    const body = manualReturnBody();
    expect(await client.createReturn(body, { idempotencyKey: 'k-1' })).toEqual(created);
    expect(calls[0]?.url).toBe('http://s/returns');
    expect(calls[0]?.init.method).toBe('POST');
    expect(headerOf(calls[0], 'Idempotency-Key')).toBe('k-1');
    expect(headerOf(calls[0], 'Content-Type')).toBe('application/json');
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual(body);
  });

  it('throws ApiError with the error body on non-2xx', async () => {
    const { fetch } = fakeFetch(() => json(409, errorBody('INVALID_STATUS_TRANSITION', 'No.', { from: 'received', to: 'pending', allowed: [] })));
    const client = new ApiClient({ baseUrl: 'http://s', token: 't', fetch });
    const error = await client.updatePackage(1, 7, { status: 'pending' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, errorCode: 'INVALID_STATUS_TRANSITION', message: 'No.' });
    expect((error as ApiError).details.from).toBe('received');
  });

  it('reports an answer that is not the error shape as UNEXPECTED_RESPONSE', async () => {
    const { fetch } = fakeFetch(() => new Response('<html>oops</html>', { status: 502 }));
    const client = new ApiClient({ baseUrl: 'http://s', token: 't', fetch });
    await expect(client.station()).rejects.toMatchObject({ status: 502, errorCode: 'UNEXPECTED_RESPONSE' });
  });

  it('rejects a 2xx answer of the wrong shape', async () => {
    const { fetch } = fakeFetch(() => json(200, { id: 'seven' }));
    const client = new ApiClient({ baseUrl: 'http://s', token: 't', fetch });
    await expect(client.getPackage(1, 7)).rejects.toMatchObject({ errorCode: 'UNEXPECTED_RESPONSE' });
  });

  it('turns a failed connection into StationUnreachableError', async () => {
    const client = new ApiClient({
      baseUrl: 'http://s',
      token: 't',
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    await expect(client.health()).rejects.toBeInstanceOf(StationUnreachableError);
  });

  it('uploads a Blob with its content type and deletes with 204', async () => {
    const media = { id: 4, url: 'http://s/media/abc', type: 'image', created_at: NOW, captured_at: '2026-03-01T09:58:00.000Z' };
    const { fetch, calls } = fakeFetch((call) => (call.init.method === 'DELETE' ? new Response(null, { status: 204 }) : json(201, media)));
    const client = new ApiClient({ baseUrl: 'http://s', token: 't', fetch });
    const blob = new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' });
    expect(await client.uploadMedia(1, 7, blob, { capturedAt: media.captured_at })).toEqual(media);
    expect(calls[0]?.url).toBe('http://s/api/v1/accounts/1/return_packages/7/media_files?captured_at=2026-03-01T09%3A58%3A00.000Z');
    expect(headerOf(calls[0], 'Content-Type')).toBe('image/jpeg');
    expect(calls[0]?.init.body).toBe(blob);
    await expect(client.deleteLineItem(1, 7, 9)).resolves.toBeUndefined();
    expect(calls[1]?.url).toBe('http://s/api/v1/accounts/1/return_packages/7/line_items/9');
    expect(calls[1]?.init.method).toBe('DELETE');
  });

  it('query strings drop empty values and join lists', () => {
    expect(toQueryString({ a: undefined, b: null, c: [], d: ['x', 'y'], e: 0, f: false })).toBe('?d=x%2Cy&e=0&f=false');
    expect(toQueryString({})).toBe('');
  });
});

describe('events', () => {
  it('round-trips a formatted event and refuses invalid ones', () => {
    const data = { account_id: 1, occurred_at: NOW, package: samplePackage() };
    const wire = formatSseEvent('5', 'package.updated', data);
    expect(wire).toMatch(/\n\n$/);
    expect(parseStationEvent({ id: '5', event: 'package.updated', data: JSON.stringify(data) })).toEqual({
      id: '5',
      event: 'package.updated',
      data,
    });
    expect(parseStationEvent({ id: '5', event: 'package.deleted', data: JSON.stringify(data) })).toBeNull();
    expect(parseStationEvent({ id: '5', event: 'return.created', data: JSON.stringify(data) })).toBeNull();
    expect(parseStationEvent({ id: '5', event: 'package.updated', data: '{' })).toBeNull();
  });

  it('subscribeEvents streams, resumes with Last-Event-ID and stops on abort', async () => {
    const controller = new AbortController();
    const received: StationEvent[] = [];
    const pkg = (id: number) => ({ account_id: 1, occurred_at: NOW, package: samplePackage({ id }) });
    const first =
      formatSseEvent('1', 'package.created', pkg(1)) + 'retry: 5\n' + formatSseEvent('2', 'package.updated', pkg(2)) + 'event: unknown.event\ndata: {}\n\n';
    const second = formatSseEvent('3', 'return.created', { account_id: 1, occurred_at: NOW, return: manualReturnRecord() });
    const streams = [first, second];
    const { fetch, calls } = fakeFetch(() => {
      const text = streams.shift();
      if (text === undefined) {
        controller.abort();
        return Promise.reject(new DOMException('aborted', 'AbortError'));
      }
      // Split the stream into small chunks to exercise the parser.
      const bytes = new TextEncoder().encode(text);
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < bytes.length; i += 7) c.enqueue(bytes.subarray(i, i + 7));
          c.close();
        },
      });
      return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
    });
    const client = new ApiClient({ baseUrl: 'http://s', token: 't', fetch });
    await client.subscribeEvents(1, { signal: controller.signal, onEvent: (e) => received.push(e), reconnectMs: 10_000 });
    expect(received.map((e) => [e.id, e.event])).toEqual([
      ['1', 'package.created'],
      ['2', 'package.updated'],
      ['3', 'return.created'],
    ]);
    expect(calls.map((c) => headerOf(c, 'Last-Event-ID'))).toEqual([undefined, '2', '3']);
    expect(calls[0]?.url).toBe('http://s/api/v1/accounts/1/events');
    expect(headerOf(calls[0], 'Authorization')).toBe('Bearer t');
    expect(headerOf(calls[0], 'Accept')).toBe('text/event-stream');
  });

  it('subscribeEvents ends with the ApiError of a refused stream', async () => {
    const { fetch } = fakeFetch(() => json(401, errorBody('INVALID_TOKEN')));
    const client = new ApiClient({ baseUrl: 'http://s', token: 'bad', fetch });
    await expect(client.subscribeEvents(1, { signal: new AbortController().signal, onEvent: () => undefined })).rejects.toMatchObject({
      status: 401,
      errorCode: 'INVALID_TOKEN',
    });
  });
});
