import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import { ApiError } from '#shared/api/client.ts';
import { parseRequest } from '#shared/api/errors.ts';
import { OperatorCreateSchema, OperatorUpdateSchema } from '#shared/api/station.ts';
import { parseStrictId } from '#shared/api/common.ts';
import {
  defaultDataDir,
  ContractError,
  createOperator,
  listOperators,
  pinHashOf,
  updateOperator,
  assertNotSiteManaged,
  withStationStore,
} from '../station/index.ts';
import { CommandRefused, UsageError } from './cli-error.ts';
import { printTable, runningStation } from './tokens.ts';

const FLAG_OF: Record<string, string> = { badge_code: 'badge', sign_in_key: 'key', active: 'activate/--deactivate', role: 'supervisor/--worker' };

/** A body through its shared schema, its refusals named as the command's flags. */
function parsed<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = parseRequest(schema, body);
  if (!result.success) {
    throw new UsageError(
      result.error.issues.map((issue) => `--${FLAG_OF[String(issue.path[0])] ?? String(issue.path[0] ?? 'options')}: ${issue.message}`).join('; '),
    );
  }
  return result.data;
}

/** `--pin -` reads the PIN from stdin (kept out of the process list and the shell's history). */
function pinArg(value: string | undefined): string | undefined {
  if (value !== '-') return value;
  return readFileSync(0, 'utf8').trim();
}

function keyArg(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'none') return null;
  const key = parseStrictId(value);
  if (key === null) throw new UsageError(`--key must be a number key 1–9 or "none", got "${value}".`);
  return key;
}

/**
 * `returns-station operator add|list|set`: dock workers and supervisors, whose id is the
 * processor_id of what they receive. While a station holds the directory, the command goes through
 * its API with the command line's administrative token (as `token create` does).
 */
export async function operatorCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    strict: true,
    allowPositionals: action === 'set',
    options: {
      name: { type: 'string' },
      badge: { type: 'string' },
      key: { type: 'string' },
      pin: { type: 'string' },
      supervisor: { type: 'boolean' },
      worker: { type: 'boolean' },
      activate: { type: 'boolean' },
      deactivate: { type: 'boolean' },
      'data-dir': { type: 'string' },
    },
  });
  const dataDir = values['data-dir'] ?? defaultDataDir();
  if (values.supervisor && values.worker) throw new UsageError('Give --supervisor or --worker, not both.');
  if (values.activate && values.deactivate) throw new UsageError('Give --activate or --deactivate, not both.');
  const role = values.supervisor ? 'supervisor' : values.worker ? 'worker' : undefined;
  const active = values.activate ? true : values.deactivate ? false : undefined;
  const running = runningStation(dataDir);
  switch (action) {
    case 'add': {
      const body = parsed(OperatorCreateSchema, {
        name: values.name,
        badge_code: values.badge ?? null,
        ...(role === undefined ? {} : { role }),
        ...(active === undefined ? {} : { active }),
        ...(values.key === undefined ? {} : { sign_in_key: keyArg(values.key) }),
        ...(values.pin === undefined ? {} : { pin: pinArg(values.pin) }),
      });
      const operator = await refusedAsCommand(() =>
        running
          ? running.createOperator(body)
          : withStationStore(dataDir, 'returns-station operator add', async (ctx) => {
              await assertNotSiteManaged(ctx.store.tables, 'The workers');
              return createOperator(ctx, body, await pinHashOf(body));
            }),
      );
      process.stdout.write(`${operator.id}\n`);
      return;
    }
    case 'set': {
      const id = parseStrictId(positionals[0] ?? '');
      if (id === null) throw new UsageError(`The operator id must be a positive integer, got "${positionals[0] ?? ''}".`);
      const patch = parsed(OperatorUpdateSchema, {
        ...(values.name === undefined ? {} : { name: values.name }),
        ...(values.badge === undefined ? {} : { badge_code: values.badge === 'none' ? null : values.badge }),
        ...(values.key === undefined ? {} : { sign_in_key: keyArg(values.key) }),
        ...(values.pin === undefined ? {} : { pin: pinArg(values.pin) }),
        ...(role === undefined ? {} : { role }),
        ...(active === undefined ? {} : { active }),
      });
      const operator = await refusedAsCommand(() =>
        running
          ? running.updateOperator(id, patch)
          : withStationStore(dataDir, 'returns-station operator set', async (ctx) => {
              await assertNotSiteManaged(ctx.store.tables, 'The workers');
              return updateOperator(ctx, id, patch, await pinHashOf(patch));
            }),
      );
      process.stderr.write(
        `Operator ${operator.id} (${operator.name}) changed${patch.pin === undefined ? '' : ': new PIN set, their supervisor sessions ended'}.\n`,
      );
      return;
    }
    case 'list': {
      const operators = running
        ? await refusedAsCommand(() => running.listAllOperators())
        : await withStationStore(dataDir, 'returns-station operator list', (ctx) => listOperators(ctx));
      printTable(
        ['ID', 'NAME', 'BADGE', 'KEY', 'ROLE', 'PIN', 'ACTIVE', 'UID'],
        operators.map((o) => [
          String(o.id),
          o.name,
          o.badge_code ?? '',
          o.sign_in_key === null ? '' : String(o.sign_in_key),
          o.role,
          o.has_pin ? 'set' : '',
          o.active ? 'yes' : 'no',
          o.uid,
        ]),
      );
      return;
    }
    default:
      throw new UsageError(`Unknown operator action "${action ?? ''}": use add, set or list.`);
  }
}

/** A refusal of the store or of the running station is the command's refusal (exit code 1). */
async function refusedAsCommand<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ContractError) throw new CommandRefused(error.message);
    if (error instanceof ApiError) throw new CommandRefused(`The running station refused: ${error.message}`);
    throw error;
  }
}
