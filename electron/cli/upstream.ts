import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseStrictId } from '#shared/api/common.ts';
import { defaultDataDir } from '../station/data-dir.ts';
import { createSyncEngine } from '../station/sync/engine.ts';
import { displayUrl, parseUpstreamSettings, readUpstreamSettings, removeUpstreamSettings, writeUpstreamSettings } from '../station/sync/settings.ts';
import { CommandRefused, UsageError } from './cli-error.ts';
import { withStationStore } from './with-station-store.ts';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The token from exactly one of --token, --token-file, --token-stdin (the last two keep it out of shell history). */
async function tokenFrom(values: { token?: string | undefined; 'token-file'?: string | undefined; 'token-stdin'?: boolean | undefined }): Promise<string> {
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

/** `returns-station upstream set|show|remove`. */
export async function upstreamCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      'token-file': { type: 'string' },
      'token-stdin': { type: 'boolean' },
      account: { type: 'string', multiple: true },
      'data-dir': { type: 'string' },
    },
  });
  const dataDir = values['data-dir'] ?? defaultDataDir();
  switch (action) {
    case 'set': {
      if (values.url === undefined) throw new UsageError('upstream set needs --url URL (the upstream returns service).');
      const accounts = (values.account ?? []).map((value) => {
        const id = parseStrictId(value);
        if (id === null) throw new UsageError(`--account must be a positive integer, got "${value}".`);
        return id;
      });
      if (accounts.length === 0) throw new UsageError('upstream set needs at least one --account A.');
      let settings;
      try {
        settings = parseUpstreamSettings({ url: values.url, token: await tokenFrom(values), accounts });
      } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError(error instanceof Error ? error.message : String(error));
      }
      await withStationStore(dataDir, 'returns-station upstream set', (ctx) => writeUpstreamSettings(ctx.store, settings, ctx.clock.now()));
      process.stderr.write(`Upstream set: ${displayUrl(settings.url)}, accounts ${settings.accounts.join(', ')}.\n`);
      return;
    }
    case 'show': {
      const settings = await withStationStore(dataDir, 'returns-station upstream show', (ctx) => readUpstreamSettings(ctx.store));
      if (!settings) {
        process.stdout.write('No upstream is set: sync is off.\n');
        return;
      }
      // Never the secret: only whether one is set.
      process.stdout.write(`url: ${displayUrl(settings.url)}\naccounts: ${settings.accounts.join(', ')}\ntoken: set (hidden)\n`);
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
/** `sync --once` waits for the upstream's gate this long at most; a longer backoff ends it (exit 1). */
const ONCE_GATE_WAIT_MAX_MS = 60_000;

/**
 * `returns-station sync --once`: rounds until nothing more can go (at most 50), then a summary.
 * Exit 0: everything sent and pulled; 3: changes remain that need a person or a later try;
 * 1: no upstream set, the upstream unreachable or failing, or sync paused. While the upstream backs
 * off (a 5xx or a lost answer) it waits for the gate to open, up to a minute, and sends nothing meanwhile.
 */
export async function syncCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, strict: true, options: { once: { type: 'boolean', default: false }, 'data-dir': { type: 'string' } } });
  if (!values.once) throw new UsageError('Use `returns-station sync --once` (a running `serve` syncs on its own).');
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const summary = await withStationStore(dataDir, 'returns-station sync --once', async (ctx) => {
    if (!(await readUpstreamSettings(ctx.store))) throw new CommandRefused('No upstream is set: use `returns-station upstream set` first.');
    const engine = createSyncEngine({ store: ctx.store, clock: ctx.clock });
    const totals = { created: 0, updated: 0, adopted: 0, media_uploaded: 0, pulled: 0, requests: 0 };
    let last = await engine.runRound({ pull: true, ignoreBackoff: true });
    let idleRounds = 0;
    // A round the upstream cut short (offline, or failing and backing off) did not pull: a later one does.
    let pullPending = last.offline;
    for (let round = 1; ; round += 1) {
      for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += last[key];
      // A lost answer backs its change off: go again at once while rounds get somewhere (a lookup
      // adopts what the upstream made); two rounds in a row without progress end it.
      idleRounds = last.created + last.updated + last.adopted + last.media_uploaded > 0 ? 0 : idleRounds + 1;
      if (last.paused.length > 0 || round >= MAX_ROUNDS || engine.status().pending_changes === 0) break;
      if (idleRounds >= 2 || (idleRounds === 1 && last.retrying === 0 && last.backoff_until === null)) break;
      const opensAt = engine.upstreamHealth().backoffUntil;
      if (opensAt !== null) {
        if (opensAt - Date.now() > ONCE_GATE_WAIT_MAX_MS) break;
        await new Promise((resolve) => setTimeout(resolve, opensAt - Date.now()));
      }
      last = await engine.runRound({ pull: pullPending, ignoreBackoff: true });
      pullPending &&= last.offline;
    }
    return { totals, last, status: engine.status() };
  });
  const { totals, last, status } = summary;
  const lines = [
    `sync: ${status.state}`,
    `sent: ${totals.created} created, ${totals.updated} updated, ${totals.adopted} adopted after a lost answer`,
    `media: ${totals.media_uploaded} files uploaded`,
    `pulled: ${totals.pulled} records`,
    `waiting: ${status.pending_changes} changes${last.parked + last.gone > 0 ? ` (${last.parked} parked, ${last.gone} gone upstream)` : ''}`,
    `upstream requests: ${totals.requests}`,
  ];
  if (status.last_error) lines.push(`last error: ${status.last_error}`);
  if (status.backoff_until) lines.push(`upstream backing off until ${status.backoff_until}`);
  if (status.media_kept_local) lines.push(status.media_kept_local);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (last.offline || last.paused.length > 0) process.exitCode = 1;
  else if (status.pending_changes > 0) process.exitCode = 3;
}
