import { parseArgs } from 'node:util';
import { OperatorCreateSchema } from '#shared/api/station.ts';
import { parseRequest } from '#shared/api/errors.ts';
import { defaultDataDir } from '../station/data-dir.ts';
import { ContractError } from '../station/errors.ts';
import { createOperator, listOperators } from '../station/domain/operators.ts';
import { CommandRefused, UsageError } from './cli-error.ts';
import { printTable } from './tokens.ts';
import { withStationStore } from './with-station-store.ts';

/** `returns-station operator add|list`: dock workers, whose id is the processor_id of what they receive. */
export async function operatorCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: { name: { type: 'string' }, badge: { type: 'string' }, 'data-dir': { type: 'string' } },
  });
  const dataDir = values['data-dir'] ?? defaultDataDir();
  switch (action) {
    case 'add': {
      const parsed = parseRequest(OperatorCreateSchema, { name: values.name, badge_code: values.badge ?? null });
      if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => `--${issue.path[0] === 'badge_code' ? 'badge' : String(issue.path[0])}: ${issue.message}`).join('; '));
      try {
        const operator = await withStationStore(dataDir, 'returns-station operator add', (ctx) => createOperator(ctx, parsed.data));
        process.stdout.write(`${operator.id}\n`);
      } catch (error) {
        if (error instanceof ContractError) throw new CommandRefused(error.message);
        throw error;
      }
      return;
    }
    case 'list': {
      const operators = await withStationStore(dataDir, 'returns-station operator list', (ctx) => listOperators(ctx));
      printTable(['ID', 'NAME', 'BADGE', 'ACTIVE'], operators.map((o) => [String(o.id), o.name, o.badge_code ?? '', o.active ? 'yes' : 'no']));
      return;
    }
    default:
      throw new UsageError(`Unknown operator action "${action ?? ''}": use add or list.`);
  }
}
