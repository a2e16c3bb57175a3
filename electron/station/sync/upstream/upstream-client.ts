import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { UpstreamAnswer } from './answers.ts';
import type { RateBudget, RequestPriority } from './rate-budget.ts';

/*
 * HTTP to the upstream returns service. Not the station's typed ApiClient: sync needs every answer's
 * status and rate-limit headers, and reads the upstream's bodies leniently (any server of the
 * returns service interface, not only a station) — see upstream-records.ts.
 */

/** The upstream's addresses as its spec names them (trailing slashes taken off), the token and the accounts synced. */
export interface UpstreamSettings {
  /** Manual returns: `{returns_url}/returns`. */
  returns_url: string;
  /** Return packages and an account's returns: `{base_url}/v1/accounts/{account_id}/…`. */
  base_url: string;
  token: string;
  accounts: number[];
  /**
   * Present when this station joined a site's hub (`site join`): the upstream is then that hub, a
   * Returns Station reached over TLS pinned to the hub's site authority, and the station's own richer
   * interface is used with it. Absent for a returns service of the spec (even one that is a Returns Station).
   */
  site?: SiteMembership;
}

/** What a station keeps of the hub it joined. */
export interface SiteMembership {
  /** The hub's site certificate authority (PEM): the one anchor trusted for the hub's address. */
  hub_ca_pem: string;
  /** Its SHA-256 fingerprint (upper-case hex pairs joined by colons), as the hub prints and shows it. */
  hub_ca_sha256: string;
  /** This station's id among the site's members, as the hub issued it at join. */
  member_id: string;
  /** The successor the hub announced over the pinned channel, trusted beside the authority until it is served (site/authority-follow.ts). */
  hub_ca_next_pem?: string | undefined;
  hub_ca_next_sha256?: string | undefined;
}

/** The upstream could not be reached, or the answer was lost (timeout, reset): the request may or may not have taken effect. */
export class UpstreamUnreachableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UpstreamUnreachableError';
  }
}

export interface UpstreamRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path below `{returns_url}` (`/returns`) or `{base_url}` (`/v1/...`): see returnsPath/packagesPath. */
  url: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  /** A raw body streamed from a file (a media upload), instead of `json`. */
  file?: { path: string; contentType: string; size: number };
  idempotencyKey?: string;
  priority: RequestPriority;
  /** A shorter time cap than the default 20 s (a dock read: fresh-reads.ts). */
  timeoutMs?: number;
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface UpstreamClient {
  readonly settings: UpstreamSettings;
  /** Resolves to the answer, or null when a pull should give way to the rate budget. */
  send(request: UpstreamRequest): Promise<UpstreamAnswer | null>;
  returnsUrl(): string;
  accountReturnsUrl(accountId: number, id?: number): string;
  packagesUrl(accountId: number, id?: number): string;
  /**
   * The sha256 of the bytes behind a media capability URL the upstream gave, read without the token
   * (such a URL is the permission); null when unreadable or longer than `maxBytes`.
   */
  mediaHash(url: string, maxBytes: number): Promise<string | null>;
  /** Requests sent since the client was made (for the summary and the bench). */
  readonly requests: number;
  /** The upstream's request budget this client spends (the background fill reads how much is left). */
  readonly budget: RateBudget;
}

const TIMEOUT_MS = 20_000;
/** Uploads get the usual time plus one second per MiB: a 200 MiB video over a slow line still fits. */
const UPLOAD_MS_PER_MIB = 1_000;

function bodyOf(request: UpstreamRequest): Pick<RequestInit, 'body'> & { duplex?: 'half' } {
  if (request.file) return { body: Readable.toWeb(createReadStream(request.file.path)) as ReadableStream<Uint8Array>, duplex: 'half' };
  return request.json === undefined ? {} : { body: JSON.stringify(request.json) };
}

/**
 * `extraHeaders`: sent with every request; a site's member tells its hub the changes it holds
 * unsent (`Returns-Station-Pending`), which the hub's `site show` lists.
 */
export function createUpstreamClient(
  settings: UpstreamSettings,
  budget: RateBudget,
  fetchImpl: FetchLike = (input, init) => fetch(input, init),
  extraHeaders: () => Record<string, string> = () => ({}),
): UpstreamClient {
  const returnsUrl = settings.returns_url.replace(/\/+$/, '');
  const baseUrl = settings.base_url.replace(/\/+$/, '');
  const accountUrl = (accountId: number, resource: string, id: number | undefined) =>
    `${baseUrl}/v1/accounts/${accountId}/${resource}${id === undefined ? '' : `/${id}`}`;
  let requests = 0;
  return {
    settings,
    budget,
    get requests() {
      return requests;
    },
    returnsUrl: () => `${returnsUrl}/returns`,
    accountReturnsUrl: (accountId, id) => accountUrl(accountId, 'returns', id),
    packagesUrl: (accountId, id) => accountUrl(accountId, 'return_packages', id),
    async send(request) {
      if (!(await budget.acquire(request.priority))) return null;
      requests += 1;
      let response: Response;
      let text: string;
      try {
        const timeout = request.timeoutMs ?? TIMEOUT_MS + (request.file ? Math.ceil(request.file.size / 1024 / 1024) * UPLOAD_MS_PER_MIB : 0);
        response = await fetchImpl(urlOf(request), {
          method: request.method,
          headers: { ...extraHeaders(), ...headersOf(request, settings.token) },
          ...bodyOf(request),
          signal: AbortSignal.timeout(timeout),
        });
        text = await response.text();
      } catch (cause) {
        const error = new UpstreamUnreachableError(
          `The upstream at ${addressOf(request.url)} cannot be reached (${cause instanceof Error ? cause.message : String(cause)}).`,
          { cause },
        );
        // No answer backs the whole upstream off (rate-budget.ts, upstream-gate.ts).
        budget.unreachable(error.message);
        throw error;
      }
      budget.observe(response.status, response.headers);
      return { status: response.status, headers: response.headers, body: jsonOrNull(text) };
    },
    mediaHash(url, maxBytes) {
      if (!/^https?:\/\//i.test(url)) return Promise.resolve(null);
      requests += 1;
      // The spec does not say whether a file's address needs the token: it is sent only to the upstream's own origins.
      const own = [returnsUrl, baseUrl].some((address) => originOf(address) === originOf(url));
      return hashOfMedia(fetchImpl, url, maxBytes, own ? { authorization: `Bearer ${settings.token}` } : {});
    },
  };
}

/** The origin a request went to, as it may be shown (never user-info). */
function addressOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'its address';
  }
}

/** The request's address with its query (values left undefined are left out). */
function urlOf(request: UpstreamRequest): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {})) if (value !== undefined) params.set(key, String(value));
  return params.size > 0 ? `${request.url}?${params}` : request.url;
}

function headersOf(request: UpstreamRequest, token: string): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${token}` };
  if (request.json !== undefined) headers['Content-Type'] = 'application/json';
  if (request.file) headers['Content-Type'] = request.file.contentType;
  if (request.idempotencyKey) headers['Idempotency-Key'] = request.idempotencyKey;
  return headers;
}

/** An answer's body read leniently: its JSON, else null (empty or not JSON). */
function jsonOrNull(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The sha256 of the bytes at a media capability URL, streamed (no token: the URL is the permission); null when unreadable or over `maxBytes`. */
function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

async function hashOfMedia(fetchImpl: FetchLike, url: string, maxBytes: number, headers: Record<string, string>): Promise<string | null> {
  try {
    const response = await fetchImpl(url, {
      method: 'GET',
      headers,
      signal: AbortSignal.timeout(TIMEOUT_MS + Math.ceil(maxBytes / 1024 / 1024) * UPLOAD_MS_PER_MIB),
    });
    if (!response.ok || !response.body) return null;
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > maxBytes) return null; // leaving the loop cancels the stream
      hash.update(chunk);
    }
    return hash.digest('hex');
  } catch (cause) {
    throw new UpstreamUnreachableError(
      `The upstream's media at ${new URL(url).origin} cannot be read (${cause instanceof Error ? cause.message : String(cause)}).`,
      { cause },
    );
  }
}
