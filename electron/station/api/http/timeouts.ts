/**
 * How long the station waits on a connection. Short for plain requests (a slow or idle client
 * cannot pin a connection down), none for event streams, which stay open for hours and are kept
 * alive by a comment well within any idle timeout on the way (proxies commonly cut at 60 s).
 */
export interface HttpTimeouts {
  /** A socket with no traffic is closed after this long (Node's server.timeout). */
  idleMs: number;
  /** A kept-alive connection waits this long for the next request. */
  keepAliveMs: number;
  /** The request line and headers must arrive within this. */
  headersMs: number;
  /** The whole request (headers and body) must arrive within this; uploads need the most. */
  requestMs: number;
  /** An event stream sends a comment this often. */
  heartbeatMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = {
  idleMs: 10_000,
  keepAliveMs: 10_000,
  headersMs: 5_000,
  requestMs: 30_000,
  heartbeatMs: 15_000,
};
