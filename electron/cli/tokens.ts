import { parseArgs } from 'node:util';
import { parseStrictId } from '#shared/api/common.ts';
import { defaultDataDir } from '../station/data-dir.ts';
import { createToken, listTokens, revokeToken } from '../station/domain/tokens.ts';
import { ContractError } from '../station/errors.ts';
import { CommandRefused, UsageError } from './cli-error.ts';
import { withStationStore } from './with-station-store.ts';

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
      const rows = tokens.map((t) => [String(t.id), t.scope, t.account_id === null ? '*' : String(t.account_id), t.name, t.created_at, t.revoked_at ? `revoked ${t.revoked_at}` : t.expires_at ? `expires ${t.expires_at}` : 'active']);
      printTable(['ID', 'SCOPE', 'ACCOUNT', 'NAME', 'CREATED', 'STATE'], rows);
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
  for (const row of [header, ...rows]) process.stdout.write(`${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()}\n`);
}
