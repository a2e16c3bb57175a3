/** One answer of the upstream (upstream-client.ts), as the gate and the callers read it. */
export interface UpstreamAnswer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or null when the body was empty or not JSON. */
  body: unknown;
}
