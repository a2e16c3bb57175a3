import { existsSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadResult {
  rate: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  non2xx: number;
  /** The server process's CPU time (user + system) per request of the measured run, when `serverPid` was given (Linux). */
  cpu_us_per_request?: number;
}

export interface LoadOptions {
  url: string;
  connections?: number;
  durationSeconds?: number;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST' | 'PATCH';
  /** Builds each request (path/body); for random pages, fresh bodies, distinct ids. */
  requests?: autocannon.Request[];
  /**
   * The server's process id: its CPU time per request is reported too. Unlike the rate, that figure
   * hardly depends on what else the machine runs, so it compares runs on a shared machine.
   */
  serverPid?: number;
}

/** Clock ticks of user + system CPU time a process has used so far (Linux `/proc`), or undefined. */
function cpuTicksOf(pid: number | undefined): number | undefined {
  const file = `/proc/${pid}/stat`;
  if (pid === undefined || !existsSync(file)) return undefined;
  // Fields after the command name (which is in parentheses): utime and stime are the 12th and 13th.
  const stat = readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second. */
const TICK_US = 10_000;

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
  const ticksBefore = cpuTicksOf(options.serverPid);
  const result = await run(options.durationSeconds ?? 5);
  const ticksAfter = cpuTicksOf(options.serverPid);
  const cpu =
    ticksBefore !== undefined && ticksAfter !== undefined && result.requests.total > 0
      ? ((ticksAfter - ticksBefore) * TICK_US) / result.requests.total
      : undefined;
  return {
    rate: result.requests.average,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ...(cpu === undefined ? {} : { cpu_us_per_request: Math.round(cpu) }),
  };
}
