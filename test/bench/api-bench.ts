// API figures: get-one, list, create, update over real HTTP with 10,000 and 100,000
// packages, beside baselines measured in the same run: a bare Fastify hello-world, json-server 0.17,
// and for the durable create its physical floor, a bare Fastify route making the same kind of insert
// durable on the same SQLite (durable-create-server.ts). Targets are shares of those baselines, so a
// slower machine moves both sides.
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { type RunningStation, startStation } from '../support/station-process.ts';
import { buildDataset } from './dataset.ts';
import { startBaselineServer, startHelloBaseline } from './hello-baseline.ts';
import { startJsonServer } from './json-server-baseline.ts';
import { load, type LoadResult } from './load.ts';
import type { BenchRow } from './report.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const HELLO = 'fastify hello-world (baseline)';
const jsonServerName = (op: string) => `json-server 0.17 ${op} @10k (baseline)`;
const DURABLE = 'fastify durable create: SQLite WAL, synchronous=FULL, group commit (baseline)';
/** The station's durable create, as a share of its physical floor measured in the same run. */
const DURABLE_SHARE = 0.5;
const CREATE_CONNECTIONS = 32;

/** A target that is a share of another row's rate, measured in the same run. */
interface RatioTarget {
  of: string;
  atLeast: number;
}
/** The ratio targets of the rows, by row name (judge() checks them). */
const ratioTargets = new Map<string, RatioTarget[]>();

/** Account 1 holds every fourth record of the dataset (ids 1, 5, 9, …). */
const randomAccountOneId = (count: number) => 1 + 4 * Math.floor(Math.random() * Math.floor(count / 4));

interface Op {
  name: string;
  connections: number;
  requests: (count: number) => autocannon.Request[];
}

let counter = 0;
/** Creates of a package with a tracking number of its own: the station's and the durable baseline's the same. */
function createRequests(path: string, returnId: () => number): autocannon.Request[] {
  return [
    {
      method: 'POST',
      setupRequest: (req) => ({ ...req, path, body: JSON.stringify({ return_id: returnId(), tracking_number: `BENCH${process.pid}${counter++}` }) }),
    },
  ];
}

function operations(prefix: string): Op[] {
  return [
    {
      name: 'get-one',
      connections: 16,
      requests: (count) => [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `${prefix}/${randomAccountOneId(count)}` }) }],
    },
    {
      name: 'list (25, status filter, random page)',
      connections: 16,
      // About a third of account 1's packages are in transit: pages 1 … count/300.
      requests: (count) => [
        {
          method: 'GET',
          setupRequest: (req) => ({ ...req, path: `${prefix}?status=in_transit&per_page=25&page=${1 + Math.floor(Math.random() * Math.max(1, count / 300))}` }),
        },
      ],
    },
    {
      name: 'create',
      connections: CREATE_CONNECTIONS,
      requests: (count) => createRequests(prefix, () => randomAccountOneId(count)),
    },
    {
      name: 'update',
      connections: 32,
      requests: (count) => [
        {
          method: 'PATCH',
          setupRequest: (req) => ({ ...req, path: `${prefix}/${randomAccountOneId(count)}`, body: JSON.stringify({ notes: `checked ${counter++}` }) }),
        },
      ],
    },
  ];
}

function row(section: string, name: string, result: LoadResult, extra: Partial<BenchRow> = {}): BenchRow {
  const errors = result.errors + result.non2xx;
  const parts = [
    ...(result.cpu_us_per_request === undefined ? [] : [`server CPU ${result.cpu_us_per_request} µs/request`]),
    ...(errors ? [`${errors} failed`] : []),
  ];
  return { section, name, rate: result.rate, p50_ms: result.p50_ms, p99_ms: result.p99_ms, ...(parts.length ? { value: parts.join('; ') } : {}), ...extra };
}

async function jsonServerRows(dir: string): Promise<BenchRow[]> {
  const server = await startJsonServer(dir, 10_000);
  const headers = { 'content-type': 'application/json' };
  let n = 0;
  const ops: Array<[string, autocannon.Request[], number]> = [
    ['get-one', [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/return_packages/${1 + Math.floor(Math.random() * 10_000)}` }) }], 16],
    [
      'list (25, status filter, random page)',
      [
        {
          method: 'GET',
          setupRequest: (req) => ({ ...req, path: `/return_packages?status=in_transit&_limit=25&_page=${1 + Math.floor(Math.random() * 130)}` }),
        },
      ],
      16,
    ],
    [
      'create',
      [{ method: 'POST', setupRequest: (req) => ({ ...req, path: '/return_packages', body: JSON.stringify({ return_id: 1, tracking_number: `JS${n++}` }) }) }],
      32,
    ],
    [
      'update',
      [
        {
          method: 'PATCH',
          setupRequest: (req) => ({ ...req, path: `/return_packages/${1 + Math.floor(Math.random() * 10_000)}`, body: JSON.stringify({ notes: `n${n++}` }) }),
        },
      ],
      32,
    ],
  ];
  const rows: BenchRow[] = [];
  try {
    for (const [name, requests, connections] of ops) {
      rows.push(row('api', jsonServerName(name), await load({ url: server.origin, connections, durationSeconds: seconds, headers, requests })));
    }
  } finally {
    await server.stop();
  }
  return rows;
}

async function stationRows(packages: number): Promise<BenchRow[]> {
  const dataset = await buildDataset(packages);
  let station: RunningStation | undefined;
  const rows: BenchRow[] = [];
  try {
    const started = Date.now();
    station = await startStation({
      dataDir: dataset.dataDir,
      env: { RETURNS_STATION_ACCOUNT_RATE_LIMIT: '2000000000', RETURNS_STATION_LOG_LEVEL: 'warn' },
      timeoutMs: 120_000,
    });
    rows.push({ section: 'api', name: `station start with ${packages.toLocaleString('en-US')} packages`, value: `${Date.now() - started} ms to ready line` });
    const headers = { authorization: `Bearer ${dataset.accountToken}`, 'content-type': 'application/json' };
    const label = packages >= 100_000 ? '@100k' : '@10k';
    for (const op of operations('/api/v1/accounts/1/return_packages')) {
      const result = await load({
        url: station.origin,
        connections: op.connections,
        durationSeconds: seconds,
        headers,
        requests: op.requests(packages),
        serverPid: station.process.pid,
      });
      const name = `station ${op.name} ${label}`;
      const extra: Partial<BenchRow> = {};
      const targets: string[] = [];
      const ratios: RatioTarget[] = [];
      if (op.name === 'get-one') {
        Object.assign(extra, { baseline: HELLO });
        targets.push('≥ 40% of hello-world');
        ratios.push({ of: HELLO, atLeast: 0.4 });
      }
      if (op.name.startsWith('list') && packages >= 100_000) {
        extra.ok = result.p99_ms < 20;
        targets.push('p99 < 20 ms');
      }
      if (op.name === 'create') {
        Object.assign(extra, { baseline: DURABLE });
        targets.push(`≥ ${DURABLE_SHARE * 100}% of the durable-create baseline, ${CREATE_CONNECTIONS} clients`);
        ratios.push({ of: DURABLE, atLeast: DURABLE_SHARE });
      }
      if (packages === 10_000) {
        // The table shows one ratio a row: the create's to its durable floor, the others' to json-server.
        if (op.name !== 'create') extra.baseline = jsonServerName(op.name);
        targets.push('≥ 10× json-server');
        ratios.push({ of: jsonServerName(op.name), atLeast: 10 });
      }
      if (targets.length > 0) extra.target = targets.join('; ');
      ratioTargets.set(name, ratios);
      rows.push(row('api', name, result, extra));
    }
  } finally {
    await station?.stop();
    await rm(dataset.dataDir, { recursive: true, force: true });
  }
  return rows;
}

/** Ratios need the baselines: fill `ok` of rows whose targets are shares of other rows (every one met, and any absolute one). */
function judge(rows: BenchRow[]): BenchRow[] {
  const byName = new Map(rows.map((r) => [r.name, r]));
  return rows.map((r) => {
    const ratios = ratioTargets.get(r.name) ?? [];
    if (ratios.length === 0 || r.rate === undefined) return r;
    const checks = ratios.map(({ of, atLeast }) => {
      const base = byName.get(of)?.rate;
      return base !== undefined && base > 0 && (r.rate ?? 0) / base >= atLeast;
    });
    if (r.ok !== undefined) checks.push(r.ok);
    return { ...r, ok: checks.every(Boolean) };
  });
}

/**
 * The durable create's floor on this machine now: a bare Fastify route doing a durable insert with
 * group commit (durable-create-server.ts), loaded like the station's create, with as many clients.
 */
async function durableCreateRow(scratchDir: string): Promise<BenchRow> {
  const dir = await mkdtemp(join(scratchDir, 'durable-baseline-'));
  const server = await startBaselineServer('./durable-create-server.ts', [dir]);
  try {
    const result = await load({
      url: server.origin,
      connections: CREATE_CONNECTIONS,
      durationSeconds: seconds,
      headers: { 'content-type': 'application/json' },
      requests: createRequests('/packages', () => 1),
      serverPid: server.pid,
    });
    return row('api', DURABLE, result);
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function runApiBench(helloRow: BenchRow | undefined, scratchDir: string): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  if (!helloRow) {
    const hello = await startHelloBaseline();
    try {
      rows.push(row('api', HELLO, await load({ url: `${hello.origin}/`, durationSeconds: seconds })));
    } finally {
      await hello.stop();
    }
  }
  // BENCH_API_PACKAGES=100000 measures one size only (json-server, the 10k baseline, is skipped then).
  const sizes = (process.env.BENCH_API_PACKAGES ?? '10000,100000').split(',').map(Number);
  if (sizes.includes(10_000)) rows.push(...(await jsonServerRows(scratchDir)));
  rows.push(await durableCreateRow(scratchDir));
  for (const size of sizes) rows.push(...(await stationRows(size)));
  return judge([...(helloRow ? [helloRow] : []), ...rows]).filter((r) => r !== helloRow);
}
