import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import { ApiClient } from '#shared/api/client.ts';
import type { ReturnPackage } from '#shared/api/return-packages.ts';
import type { ReturnRecord } from '#shared/api/returns.ts';
import type { StationStatus } from '#shared/api/station.ts';
import type { SyncChange } from '#shared/api/sync.ts';
import { type CreateStatus, isCreateStatus, PACKAGE_STATUSES, type PackageStatus } from '#shared/package-status.ts';
import { returnBody, sampleMedia, uniqueTracking } from '../api/support.ts';
import { STATION_BIN } from '../support/station-process.ts';

/*
 * Everything a station keeps, written and read back through the doors users and integrations use:
 * the HTTP API for records, media bytes and the change log; the command line for tokens and
 * operators. The restart suites compare two readings with one deep equality.
 */

/** Runs `returns-station …` to completion (the station must not hold the data directory). */
export function cli(dataDir: string, ...args: string[]): string {
  const run = spawnSync(process.execPath, [STATION_BIN, ...args, '--data-dir', dataDir], { encoding: 'utf8', timeout: 20_000 });
  if (run.status !== 0) throw new Error(`returns-station ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return run.stdout;
}

export interface StationState {
  /** Without the disk's free space (and the state derived from it), which is a measurement of the machine, not the station's data. */
  status: Omit<StationStatus, 'today' | 'storage'> & { today?: StationStatus['today']; storage: Omit<StationStatus['storage'], 'disk_free_bytes' | 'state'> };
  returns: ReturnRecord[];
  packages: ReturnPackage[];
  /** Media bytes by media URL, as base64. */
  media: Record<string, string>;
  carriers: unknown[];
  locations: unknown[];
  operators: unknown[];
  /** `token list` without the per-start tokens of `serve` (its UI link's and its command line's: each start adds them). */
  tokens: string[];
  /** The change log as the event stream replays it from the start: `id event`. */
  events: string[];
}

async function allPages<T>(fetchPage: (page: number) => Promise<{ data: T[]; meta: { total_count: number } }>): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page += 1) {
    const { data, meta } = await fetchPage(page);
    out.push(...data);
    if (data.length === 0 || out.length >= meta.total_count) return out;
  }
}

/** The change log as `GET …/events` with `Last-Event-ID: 1` replays it (all but entry 1; read until quiet). */
export async function replayEvents(origin: string, token: string, accountId: number): Promise<string[]> {
  const events: string[] = [];
  for (const block of await replayEventBlocks(origin, token, accountId)) {
    const id = /^id: ?(.*)$/m.exec(block)?.[1];
    const event = /^event: ?(.*)$/m.exec(block)?.[1];
    if (id !== undefined && event !== undefined) events.push(`${id} ${event}`);
  }
  return events;
}

/** The replayed events as the stream sends them: one text block (`id:`, `event:`, `data:` lines) each. */
export async function replayEventBlocks(origin: string, token: string, accountId: number): Promise<string[]> {
  const controller = new AbortController();
  const response = await fetch(`${origin}/api/v1/accounts/${accountId}/events`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', 'last-event-id': '1' },
    signal: controller.signal,
  });
  if (!response.ok || !response.body) throw new Error(`events: ${response.status} ${await response.text()}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  for (;;) {
    const quiet = new Promise<'quiet'>((resolve) => setTimeout(() => resolve('quiet'), 400));
    const next = await Promise.race([reader.read(), quiet]);
    if (next === 'quiet' || next.done) break;
    text += next.value;
  }
  controller.abort();
  await reader.cancel().catch(() => undefined);
  return text.split('\n\n');
}

/** The packages of an account's `package.<verb>` events, in change-log order, as the stream replays it. */
export async function packageEvents(origin: string, token: string, accountId: number, verb: 'created' | 'updated'): Promise<ReturnPackage[]> {
  const found: ReturnPackage[] = [];
  const name = new RegExp(`^event: ?package\\.${verb}$`, 'm');
  for (const block of await replayEventBlocks(origin, token, accountId)) {
    if (!name.test(block)) continue;
    const data = /^data: ?(.*)$/m.exec(block)?.[1];
    if (data) found.push((JSON.parse(data) as { package: ReturnPackage }).package);
  }
  return found;
}

/** The package ids of an account's `package.created` events. */
export async function createdPackageEvents(origin: string, token: string, accountId: number): Promise<Set<number>> {
  return new Set((await packageEvents(origin, token, accountId, 'created')).map((p) => p.id));
}

/** The ids of the packages whose change waits for the upstream (their outbox slots), every page. */
export async function waitingPackageChanges(api: ApiClient): Promise<Set<number>> {
  const all: SyncChange[] = [];
  for (let page = 1; ; page += 1) {
    const { data, meta } = await api.listSyncChanges({ page, per_page: 250 });
    all.push(...data);
    if (data.length === 0 || all.length >= meta.total_count) break;
  }
  return new Set(all.filter((c) => c.kind === 'return_package' && c.state === 'waiting').map((c) => c.id));
}

/**
 * After a stop and a start: every acknowledged create of `accountId` is there with its tracking
 * number, its `package.created` event and its waiting sync change.
 */
export async function expectCreatesKept(
  origin: string,
  stationToken: string,
  accountId: number,
  created: ReadonlyArray<{ id: number; tracking: string }>,
): Promise<void> {
  const api = new ApiClient({ baseUrl: origin, token: stationToken });
  for (const o of created) expect((await api.getPackage(accountId, o.id)).tracking_number, `package ${o.id}`).toBe(o.tracking);
  const events = await createdPackageEvents(origin, stationToken, accountId);
  const waiting = await waitingPackageChanges(api);
  for (const o of created) {
    expect(events.has(o.id), `package.created of ${o.id}`).toBe(true);
    expect(waiting.has(o.id), `sync change of ${o.id}`).toBe(true);
  }
}

/** Reads the whole observable state of a running station. `dataDir` is read by the CLI only when stopped. */
export async function readState(origin: string, stationToken: string, options: { withToday?: boolean } = {}): Promise<Omit<StationState, 'tokens'>> {
  const api = new ApiClient({ baseUrl: origin, token: stationToken });
  const { today, storage, ...rest } = await api.station();
  const status = { ...rest, storage: { media_bytes: storage.media_bytes, media_budget_bytes: storage.media_budget_bytes } };
  const accounts = status.accounts.map((a) => a.id);
  const returns: ReturnRecord[] = [];
  const packages: ReturnPackage[] = [];
  const media: Record<string, string> = {};
  const carriers: unknown[] = [];
  const locations: unknown[] = [];
  const events: string[] = [];
  for (const account of accounts) {
    const listed = await allPages((page) => api.listReturns({ account_id: account, page, per_page: 100 }));
    for (const r of listed) returns.push(await api.getReturn(account, r.id));
    const listedPackages = await allPages((page) => api.listPackages(account, { page, per_page: 100 }));
    for (const p of listedPackages) {
      const full = await api.getPackage(account, p.id);
      packages.push(full);
      for (const file of full.media_files) {
        const bytes = await fetch(new URL(file.url, origin));
        if (!bytes.ok) throw new Error(`media ${file.url}: ${bytes.status}`);
        media[file.url] = Buffer.from(await bytes.arrayBuffer()).toString('base64');
      }
    }
    carriers.push(...(await api.listCarriers(account, { per_page: 100 })).data);
    locations.push(...(await api.listLocations(account, { per_page: 100 })).data);
    events.push(...(await replayEvents(origin, stationToken, account)).map((e) => `${account}:${e}`));
  }
  const operators = await allPages((page) => api.listOperators({ page, per_page: 100 }));
  // Media URLs carry the origin, and every start picks a new port: compare them by path.
  return withoutOrigin(origin, { status: options.withToday ? { ...status, today } : status, returns, packages, media, carriers, locations, operators, events });
}

function withoutOrigin<T>(origin: string, value: T): T {
  return JSON.parse(JSON.stringify(value).replaceAll(origin, '<origin>')) as T;
}

export function readTokens(dataDir: string): string[] {
  return cli(dataDir, 'token', 'list')
    .split('\n')
    .filter((line) => line.trim() !== '' && !/(UI link|Command line) of serve on /.test(line));
}

/**
 * Writes data of every kind the station keeps, on both accounts: manual returns (one with an
 * Idempotency-Key), packages in every status, line items (created, edited, deleted), media files
 * (uploaded and deleted), operators (created and edited). Returns the idempotent request to replay.
 */
export async function writeEveryKind(
  origin: string,
  stationToken: string,
  round: number,
  /** An account token of account 1001 that outlives restarts: Idempotency-Keys are scoped to a token. */
  integrationToken: string,
): Promise<{ replay: (origin: string) => Promise<ReturnRecord> }> {
  const api = new ApiClient({ baseUrl: origin, token: stationToken });
  const { accounts } = await api.station();
  const idempotent = returnBody({ email: `idem.${round}@example.com` });
  const idempotencyKey = `restart-round-${round}-${uniqueTracking('K')}`;
  const integration = (at: string) => new ApiClient({ baseUrl: at, token: integrationToken });
  await integration(origin).createReturn(idempotent, { idempotencyKey });
  for (const { id: account } of accounts.slice(0, 2)) {
    const ret = await api.createReturn(returnBody({ email: `r${round}.a${account}@example.com`, account_id: account }));
    for (const status of PACKAGE_STATUSES) {
      const created = await api.createPackage(account, {
        return_id: ret.id,
        tracking_number: uniqueTracking(`R${round}`),
        status: createStatusFor(status),
      });
      await api.updatePackage(account, created.id, { status, notes: `round ${round} ${status}` });
      if (status === 'cancelled') continue;
      const line = ret.return_line_items[0];
      const item = await api.createLineItem(account, created.id, {
        return_line_item_id: line?.id ?? null,
        quantity: 2,
        condition: 'damaged',
        defective: true,
        notes: 'scuffed',
        barcode: `BC-${round}`,
        tags: ['restart', status],
      });
      await api.updateLineItem(account, created.id, item.id, { quantity: 1, tags: ['edited'] });
      const extra = await api.createLineItem(account, created.id, { name: 'Unexpected', merchant_sku: 'XTRA', quantity: 1 });
      await api.deleteLineItem(account, created.id, extra.id);
      await api.uploadMedia(account, created.id, new Blob([sampleMedia('image/jpeg', round * 10 + account)]), { contentType: 'image/jpeg' });
      const pdf = await api.uploadMedia(account, created.id, new Blob([sampleMedia('application/pdf', round)]), { contentType: 'application/pdf' });
      if (status === 'delivered') await api.deleteMedia(account, created.id, pdf.id);
    }
  }
  const operator = await api.createOperator({ name: `Worker ${round}`, badge_code: `BADGE-R${round}-${uniqueTracking('')}` });
  await api.updateOperator(operator.id, { name: `Worker ${round} (renamed)` });
  return { replay: (at) => integration(at).createReturn(idempotent, { idempotencyKey }) };
}

/** Packages are created in a status they may be created with, then moved to the rest. */
function createStatusFor(status: PackageStatus): CreateStatus {
  if (isCreateStatus(status)) return status;
  return status === 'exception' ? 'delivered' : 'pending';
}
