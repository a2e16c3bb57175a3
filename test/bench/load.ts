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

/** Unmeasured load before each measurement, so every server is compared once its JIT has warmed up. */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);

/**
 * Drives one endpoint over loopback with autocannon and reports rate and latency percentiles,
 * after a short unmeasured warm-up with the same requests (the same for baselines and the station).
 */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const run = (duration: number) =>
    autocannon({
      url: options.url,
      connections: options.connections ?? 16,
      duration,
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.method ? { method: options.method } : {}),
      ...(options.requests ? { requests: options.requests } : {}),
    });
  if (WARMUP_SECONDS > 0) await run(WARMUP_SECONDS);
  const result = await run(options.durationSeconds ?? 5);
  return {
    rate: result.requests.average,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
