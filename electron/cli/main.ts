import {
  DataDirLockedError,
  NotAStationDatabaseError,
  StoreLockedError,
  StoreVersionTooNewError,
  SiteCertificateError,
  StationCertificateError,
} from '../station/index.ts';
import { CommandRefused, UsageError } from './cli-error.ts';
import { EXIT } from './exit-codes.ts';
import { handheldCommand } from './handheld.ts';
import { operatorCommand } from './operators.ts';
import { serve } from './serve.ts';
import { siteCommand } from './site.ts';
import { tokenCommand } from './tokens.ts';
import { syncCommand, upstreamCommand } from './upstream.ts';
import { USAGE } from './usage.ts';

/** Entry point of `returns-station`: dispatches a command and turns known failures into clear exits. */
export async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serve(args);
      case 'token':
        return await tokenCommand(args);
      case 'operator':
        return await operatorCommand(args);
      case 'upstream':
        return await upstreamCommand(args);
      case 'sync':
        return await syncCommand(args);
      case 'site':
        return await siteCommand(args);
      case 'handheld':
        return await handheldCommand(args);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(USAGE);
        return;
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } catch (error) {
    process.exitCode = exitCodeFor(error);
    process.stderr.write(`returns-station: ${messageOf(error)}\n`);
    if (error instanceof UsageError) process.stderr.write(`\n${USAGE}`);
  } finally {
    // A token or site command may have talked to a running station: its kept-alive connection would hold
    // the process for seconds after the answer. Exit once the output is written.
    if (command === 'token' || command === 'site' || command === 'handheld') {
      await new Promise<void>((resolve) => process.stdout.write('', () => process.stderr.write('', () => resolve())));
      process.exit();
    }
  }
}

function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) return EXIT.usage.code;
  return EXIT.refused.code;
}

function messageOf(error: unknown): string {
  if (error instanceof SiteCertificateError || error instanceof StationCertificateError) return error.message;
  if (
    error instanceof DataDirLockedError ||
    error instanceof UsageError ||
    error instanceof CommandRefused ||
    error instanceof StoreLockedError ||
    error instanceof StoreVersionTooNewError ||
    error instanceof NotAStationDatabaseError
  )
    return error.message;
  if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE') return `${error.message}: the port is taken; choose another with --port.`;
  if (error instanceof Error) return error.message;
  return String(error);
}
