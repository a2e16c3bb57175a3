import { parseArgs } from 'node:util';
import { parseStrictId } from '#shared/api/common.ts';
import { defaultDataDir, createToken, listTokens, revokeToken, ContractError, withStationStore, readControl, fetchTrusting } from '../station/index.ts';
import { CommandRefused, UsageError } from './cli-error.ts';
import { ApiClient, ApiError } from '#shared/api/client.ts';
import type { TokenView } from '#shared/api/tokens.ts';

function idArg(value: string | undefined, what: string): number {
  const id = value === undefined ? null : parseStrictId(value);
  if (id === null) throw new UsageError(`${what} must be a positive integer, got "${value ?? ''}".`);
  return id;
}

/** `returns-station token create|list|revoke`. */
export async function tokenCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    strict: true,
    allowPositionals: action === 'revoke',
    options: {
      account: { type: 'string' },
      station: { type: 'boolean', default: false },
      name: { type: 'string' },
      'expires-in-days': { type: 'string' },
      'data-dir': { type: 'string' },
    },
  });
  const dataDir = values['data-dir'] ?? defaultDataDir();
  if (action === 'create' || action === 'list' || action === 'revoke') {
    // While a station holds the directory, the command talks to it over its API.
    const running = runningStation(dataDir);
    if (running) return tokenCommandOnline(running, action, values, positionals);
  }
  switch (action) {
    case 'create': {
      if (values.station === (values.account !== undefined)) throw new UsageError('Give either --account A (an account token) or --station.');
      const accountId = values.account === undefined ? null : idArg(values.account, '--account');
      const days = values['expires-in-days'] === undefined ? null : idArg(values['expires-in-days'], '--expires-in-days');
      const name = values.name ?? (accountId === null ? 'station token' : `account ${accountId} token`);
      const { secret } = await withStationStore(dataDir, 'returns-station token create', (ctx) =>
        createToken(ctx.store, ctx.clock, {
          scope: accountId === null ? 'station' : 'account',
          accountId,
          name,
          expiresAt: days === null ? null : new Date(Date.now() + days * 86_400_000).toISOString(),
        }),
      );
      // Alone on stdout, so that `TOKEN=$(returns-station token create ...)` just works.
      process.stdout.write(`${secret}\n`);
      return;
    }
    case 'list': {
      const tokens = await withStationStore(dataDir, 'returns-station token list', (ctx) => listTokens(ctx.store));
      printTokens(tokens);
      return;
    }
    case 'revoke': {
      const id = idArg(positionals[0], 'The token id');
      try {
        await withStationStore(dataDir, 'returns-station token revoke', (ctx) => revokeToken(ctx.store, ctx.clock, id));
      } catch (error) {
        if (error instanceof ContractError) throw new CommandRefused(error.message);
        throw error;
      }
      process.stderr.write(`Token ${id} revoked.\n`);
      return;
    }
    default:
      throw new UsageError(`Unknown token action "${action ?? ''}": use create, list or revoke.`);
  }
}

export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  for (const row of [header, ...rows])
    process.stdout.write(
      `${row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd()}\n`,
    );
}

/** The running station's API when `serve` holds the data directory (its control file), else null. */
export function runningStation(dataDir: string): ApiClient | null {
  const control = readControl(dataDir);
  if (!control) return null;
  try {
    process.kill(control.pid, 0);
  } catch {
    return null;
  }
  // Over TLS the command line trusts its own station's certificate alone (pinned in the owner-only control file).
  const fetch = control.tls ? fetchTrusting({ ca: control.tls.ca, servedSha256: control.tls.served_sha256 }) : undefined;
  return new ApiClient({ baseUrl: control.origin, token: control.token, ...(fetch ? { fetch } : {}) });
}

interface TokenValues {
  account?: string | undefined;
  station?: boolean | undefined;
  name?: string | undefined;
  'expires-in-days'?: string | undefined;
}

async function tokenCommandOnline(api: ApiClient, action: 'create' | 'list' | 'revoke', values: TokenValues, positionals: string[]): Promise<void> {
  try {
    if (action === 'create') {
      if (values.station === (values.account !== undefined)) throw new UsageError('Give either --account A (an account token) or --station.');
      const accountId = values.account === undefined ? undefined : idArg(values.account, '--account');
      const days = values['expires-in-days'] === undefined ? undefined : idArg(values['expires-in-days'], '--expires-in-days');
      const created = await api.createToken({
        scope: accountId === undefined ? 'station' : 'account',
        ...(accountId === undefined ? {} : { account_id: accountId }),
        ...(values.name === undefined ? {} : { name: values.name }),
        ...(days === undefined ? {} : { expires_in_days: days }),
      });
      process.stdout.write(`${created.secret}\n`);
      return;
    }
    if (action === 'list') {
      const { data } = await api.listTokens();
      printTokens(data);
      return;
    }
    const id = idArg(positionals[0], 'The token id');
    await api.revokeToken(id);
    process.stderr.write(`Token ${id} revoked (the running station refuses it from now on).\n`);
  } catch (error) {
    if (error instanceof ApiError) throw new CommandRefused(`The running station refused: ${error.message}`);
    throw error;
  }
}

function printTokens(tokens: ReadonlyArray<Pick<TokenView, 'id' | 'scope' | 'account_id' | 'name' | 'created_at' | 'revoked_at' | 'expires_at'>>): void {
  const state = (t: (typeof tokens)[number]) => (t.revoked_at ? `revoked ${t.revoked_at}` : t.expires_at ? `expires ${t.expires_at}` : 'active');
  printTable(
    ['ID', 'SCOPE', 'ACCOUNT', 'NAME', 'CREATED', 'STATE'],
    tokens.map((t) => [String(t.id), t.scope, t.account_id === null ? '*' : String(t.account_id), t.name, t.created_at, state(t)]),
  );
}
