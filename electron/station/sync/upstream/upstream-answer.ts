/** An upstream's answer as sync reads it: the status, the headers (rate limits, Retry-After) and the body. */
export interface UpstreamAnswer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or null when the body was empty or not JSON. */
  body: unknown;
}
