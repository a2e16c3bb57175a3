import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseStrictId } from '#shared/api/common.ts';
import {
  defaultDataDir,
  type SyncAccountState,
  createSyncEngine,
  listsOf,
  displayUrl,
  parseUpstreamSettings,
  readUpstreamSettings,
  removeUpstreamSettings,
  writeUpstreamSettings,
  withStationStore,
} from '../station/index.ts';
import { CommandRefused, UsageError } from './cli-error.ts';
import { SYNC_EXIT } from './exit-codes.ts';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The token from exactly one of --token, --token-file, --token-stdin (the last two keep it out of shell history). */
export async function tokenFrom(values: {
  token?: string | undefined;
  'token-file'?: string | undefined;
  'token-stdin'?: boolean | undefined;
}): Promise<string> {
  const given = [values.token !== undefined, values['token-file'] !== undefined, values['token-stdin'] === true].filter(Boolean).length;
  if (given !== 1) throw new UsageError('Give the upstream token with exactly one of --token T, --token-file F or --token-stdin.');
  let token: string;
  if (values.token !== undefined) token = values.token;
  else if (values['token-file'] !== undefined) {
    try {
      token = readFileSync(values['token-file'], 'utf8');
    } catch (error) {
      throw new CommandRefused(`Cannot read the token file: ${error instanceof Error ? error.message : String(error)}`);
    }
  } else token = await readStdin();
  token = token.trim();
  if (token === '') throw new UsageError('The upstream token is empty.');
  return token;
}

/**
 * The addresses given to `upstream set`, in the API's shape: `--returns-url` and `--base-url` (the
 * spec's two addresses), or `--url` alone for a Returns Station (returns_url = URL, base_url = URL/api).
 */
export function addressesFrom(values: {
  url?: string | undefined;
  'returns-url'?: string | undefined;
  'base-url'?: string | undefined;
}): { url: string } | { returns_url: string; base_url: string } {
  const { url, 'returns-url': returnsUrl, 'base-url': baseUrl } = values;
  if (url !== undefined) {
    if (returnsUrl !== undefined || baseUrl !== undefined) {
      throw new UsageError('Give either --url URL (a Returns Station) or both --returns-url URL and --base-url URL, not both.');
    }
    return { url };
  }
  if (returnsUrl !== undefined && baseUrl !== undefined) return { returns_url: returnsUrl, base_url: baseUrl };
  if (returnsUrl !== undefined)
    throw new UsageError('--returns-url needs --base-url too (return packages are at {base_url}/v1/accounts/{id}/return_packages).');
  if (baseUrl !== undefined) throw new UsageError('--base-url needs --returns-url too (manual returns are at {returns_url}/returns).');
  throw new UsageError("upstream set needs the upstream's addresses: --returns-url URL and --base-url URL, or --url URL for a Returns Station.");
}

/** How a returns service is given on the command line (`upstream set`, `site promote --without-hub`). */
export const UPSTREAM_OPTIONS = {
  url: { type: 'string' },
  'returns-url': { type: 'string' },
  'base-url': { type: 'string' },
  token: { type: 'string' },
  'token-file': { type: 'string' },
  'token-stdin': { type: 'boolean' },
  account: { type: 'string', multiple: true },
} as const;

/** The --account values as ids; `command` names what needs at least one. */
export function accountsFrom(values: { account?: string[] | undefined }, command: string): number[] {
  const accounts = (values.account ?? []).map((value) => {
    const id = parseStrictId(value);
    if (id === null) throw new UsageError(`--account must be a positive integer, got "${value}".`);
    return id;
  });
  if (accounts.length === 0) throw new UsageError(`${command} needs at least one --account A.`);
  return accounts;
}

/** `returns-station upstream set|show|remove`. */
export async function upstreamCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: { ...UPSTREAM_OPTIONS, 'data-dir': { type: 'string' } },
  });
  const dataDir = values['data-dir'] ?? defaultDataDir();
  switch (action) {
    case 'set': {
      const addresses = addressesFrom(values);
      const accounts = accountsFrom(values, 'upstream set');
      let settings;
      try {
        settings = parseUpstreamSettings({ ...addresses, token: await tokenFrom(values), accounts });
      } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError(error instanceof Error ? error.message : String(error));
      }
      await withStationStore(dataDir, 'returns-station upstream set', (ctx) => writeUpstreamSettings(ctx.store, settings, ctx.clock.now()));
      process.stderr.write(
        `Upstream set: returns_url ${displayUrl(settings.returns_url)}, base_url ${displayUrl(settings.base_url)}, accounts ${settings.accounts.join(', ')}.\n`,
      );
      return;
    }
    case 'show': {
      const shown = await withStationStore(dataDir, 'returns-station upstream show', async (ctx) => {
        const settings = await readUpstreamSettings(ctx.store);
        return settings ? { settings, states: await ctx.store.tables.sync_state.bulkGet(settings.accounts) } : null;
      });
      if (!shown) {
        process.stdout.write('No upstream is set: sync is off.\n');
        return;
      }
      const { settings, states } = shown;
      // Never the secret: only whether one is set.
      const lines = [
        `returns_url: ${displayUrl(settings.returns_url)}`,
        `base_url: ${displayUrl(settings.base_url)}`,
        `accounts: ${settings.accounts.join(', ')}`,
        'token: set (hidden)',
      ];
      for (const state of states) if (state) lines.push(...discoveryLines(state));
      process.stdout.write(`${lines.join('\n')}\n`);
      return;
    }
    case 'remove': {
      const had = await withStationStore(dataDir, 'returns-station upstream remove', (ctx) => removeUpstreamSettings(ctx.store));
      process.stderr.write(had ? 'Upstream removed: sync is off. Unsent changes stay queued.\n' : 'No upstream was set.\n');
      return;
    }
    default:
      throw new UsageError(`Unknown upstream action "${action ?? ''}": use set, show or remove.`);
  }
}

const MAX_ROUNDS = 50;
/** `sync --once` waits for the upstream's gate this long at most each time; a longer backoff ends it. */
const ONCE_GATE_WAIT_MAX_MS = 60_000;

/**
 * `returns-station sync --once`: one complete round — every list read to its end (every record the
 * upstream had when it began is then on the station, or listed as not stored) and every waiting
 * change tried — then push-only rounds while they get somewhere (at most 50), and a summary. While
 * the upstream backs off (a 5xx or a lost answer) it waits for its gate to open, a minute at most
 * each time, and sends nothing meanwhile; a pull the upstream cut short is done again then.
 * Exit codes: SYNC_EXIT (exit-codes.ts; 0 only when every pull and push succeeded).
 */
export async function syncCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, strict: true, options: { once: { type: 'boolean', default: false }, 'data-dir': { type: 'string' } } });
  if (!values.once) throw new UsageError('Use `returns-station sync --once` (a running `serve` syncs on its own).');
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const summary = await withStationStore(dataDir, 'returns-station sync --once', async (ctx) => {
    if (!(await readUpstreamSettings(ctx.store))) throw new CommandRefused('No upstream is set: use `returns-station upstream set` first.');
    const engine = createSyncEngine({ store: ctx.store, clock: ctx.clock });
    const totals = { created: 0, updated: 0, adopted: 0, media_uploaded: 0, pulled: 0, requests: 0 };
    let pulled = await engine.runRound({ pull: true, pullMode: 'complete', ignoreBackoff: true });
    let last = pulled;
    let idleRounds = 0;
    // A round the upstream cut short (offline, or failing and backing off) did not pull: a later one does.
    let pullPending = pulled.offline;
    for (let round = 1; ; round += 1) {
      for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += last[key];
      // A lost answer backs its change off: go again at once while rounds get somewhere (a lookup
      // adopts what the upstream made); two rounds in a row without progress end it.
      idleRounds = last.created + last.updated + last.adopted + last.media_uploaded > 0 ? 0 : idleRounds + 1;
      if (last.paused.length > 0 || round >= MAX_ROUNDS || (!pullPending && engine.status().pending_changes === 0)) break;
      // Two rounds in a row without progress end it (an outage: the first request, then one probe).
      if (idleRounds >= 2 || (!pullPending && idleRounds === 1 && last.retrying === 0 && last.backoff_until === null)) break;
      const opensAt = engine.upstreamHealth().backoffUntil;
      if (opensAt !== null) {
        // A gate further off than a minute ends it; nearer ones are waited for while rounds get somewhere
        // (each lost answer closes the gate for a moment: on a slow machine they add up to more than a minute).
        if (opensAt - Date.now() > ONCE_GATE_WAIT_MAX_MS) break;
        await new Promise((resolve) => setTimeout(resolve, opensAt - Date.now()));
      } else if (last.offline) break;
      last = await engine.runRound({ pull: pullPending, pullMode: 'complete', ignoreBackoff: true });
      if (pullPending) {
        pulled = last;
        pullPending = last.offline;
      }
    }
    const notStored = (await ctx.store.tables.sync_state.all()).flatMap((state) => state.issues ?? []).filter((issue) => !issue.stored).length;
    return { totals, first: pulled, last, status: engine.status(), notStored };
  });
  const { totals, first, last, status, notStored } = summary;
  const pullState = first.offline
    ? 'not done (upstream unreachable)'
    : first.pull_failed.length > 0
      ? 'failed'
      : first.pull_left.length > 0
        ? 'incomplete'
        : 'complete';
  const lines = [
    `sync: ${status.state}`,
    `sent: ${totals.created} created, ${totals.updated} updated, ${totals.adopted} adopted after a lost answer`,
    `media: ${totals.media_uploaded} files uploaded`,
    `pulled: ${totals.pulled} records; pull ${pullState}`,
    ...first.pull_failed.map((why) => `pull failed: ${why}`),
    ...first.pull_left.map((why) => `pull left for later: ${why}`),
    ...(notStored > 0 ? [`upstream records not stored: ${notStored} (listed on the sync screen)`] : []),
    `waiting: ${status.pending_changes} changes${last.parked + last.gone > 0 ? ` (${last.parked} parked, ${last.gone} gone upstream)` : ''}`,
    `upstream requests: ${totals.requests}`,
  ];
  if (status.last_error) lines.push(`last error: ${status.last_error}`);
  if (status.backoff_until) lines.push(`upstream backing off until ${status.backoff_until}`);
  if (status.media_kept_local) lines.push(status.media_kept_local);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (first.offline || last.offline) process.exitCode = SYNC_EXIT.unreachable.code;
  else if (first.paused.length > 0 || last.paused.length > 0) process.exitCode = SYNC_EXIT.paused.code;
  else if (first.pull_failed.length > 0 || first.pull_left.length > 0) process.exitCode = SYNC_EXIT.pullIncomplete.code;
  else if (status.pending_changes > 0) process.exitCode = SYNC_EXIT.changesLeft.code;
}

const ORDER_WORDS = { id_asc: 'by id, oldest first', id_desc: 'by id, newest first', unknown: 'in no id order' } as const;

/** What the station found out about an account's upstream lists, a line a list (`upstream show`). */
function discoveryLines(state: SyncAccountState): string[] {
  const lines: string[] = [];
  for (const [name, list] of Object.entries(listsOf(state))) {
    if (list.page_size === null && list.passed_at === null) continue;
    const order = list.order ? ORDER_WORDS[list.order] : 'order not seen yet';
    lines.push(
      `account ${state.account_id} ${name}: ${list.total ?? '?'} records, ${list.page_size ?? '?'} a page, ${order}, updated_since ${list.changes}${list.contradiction ? ` (last contradiction: ${list.contradiction})` : ''}`,
    );
  }
  const notStored = (state.issues ?? []).filter((issue) => !issue.stored).length;
  if (notStored > 0) lines.push(`account ${state.account_id}: ${notStored} upstream records not stored (see the sync screen)`);
  return lines;
}
