import { parseArgs } from 'node:util';
import { ApiError } from '#shared/api/client.ts';
import { type HandheldPairing, HandheldPairingCreateSchema } from '#shared/api/handhelds.ts';
import { defaultDataDir, ContractError, createPairing, withStationStore } from '../station/index.ts';
import { CommandRefused, UsageError } from './cli-error.ts';
import { runningStation } from './tokens.ts';

/** `returns-station handheld pair`: a pairing code for a handheld (docs/decisions/handheld-pairing.md), running or not. */
export async function handheldCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values } = parseArgs({ args: rest, strict: true, options: { 'data-dir': { type: 'string' }, name: { type: 'string' } } });
  if (action !== 'pair') throw new UsageError(`Unknown handheld action "${action ?? ''}": use pair.`);
  // The same rules as the API's (length, characters), checked before the store is opened.
  const named = HandheldPairingCreateSchema.safeParse(values.name === undefined ? {} : { device_name: values.name });
  if (!named.success) throw new UsageError(`--name: ${named.error.issues[0]?.message ?? 'not a name'}`);
  const deviceName = named.data.device_name ?? null;
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const running = runningStation(dataDir);
  try {
    const pairing: HandheldPairing = running
      ? await running.createHandheldPairing(deviceName === null ? {} : { device_name: deviceName })
      : {
          ...(await withStationStore(dataDir, 'returns-station handheld pair', (ctx) => ctx.store.write((t) => createPairing(t, ctx.clock.now(), deviceName)))),
          pair_url: null,
        };
    // The code alone on stdout (a script's to take); how to use it on stderr.
    process.stdout.write(`${pairing.code}\n`);
    process.stderr.write(
      `${pairing.pair_url === null ? 'On the handheld, open https://STATION:PORT/pair and type the code' : `On the handheld, open ${pairing.pair_url}`} (works once, until ${pairing.expires_at}). ${
        pairing.device_name === null ? 'The handheld names itself when it pairs.' : `It will be named "${pairing.device_name}".`
      }\n`,
    );
  } catch (error) {
    if (error instanceof ApiError) throw new CommandRefused(`The running station refused: ${error.message}`);
    if (error instanceof ContractError) throw new CommandRefused(error.body.details.message);
    throw error;
  }
}
