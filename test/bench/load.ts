import autocannon from 'autocannon';

export interface LoadResult {
  rate: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  connections?: number;
  durationSeconds?: number;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST' | 'PATCH';
  /** Builds each request (path/body); for random pages, fresh bodies, distinct ids. */
  requests?: autocannon.Request[];
}

/** Drives one endpoint over loopback with autocannon and reports rate and latency percentiles. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections ?? 16,
    duration: options.durationSeconds ?? 5,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.method ? { method: options.method } : {}),
    ...(options.requests ? { requests: options.requests } : {}),
  });
  return {
    rate: result.requests.average,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
