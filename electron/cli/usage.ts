import { PAIRING_CODE_MINUTES } from '#shared/api/handhelds.ts';
import { JOIN_CODE_MINUTES } from '#shared/api/site.ts';
import { PIN_DIGITS } from '#shared/api/station.ts';
import { STARTUP_SETTINGS, DEFAULT_HOT_DAYS, DEFAULT_HOT_RECENT_LIMIT, DEFAULT_PULL_INTERVAL_MS } from '../station/index.ts';
import { EXIT, SYNC_EXIT } from './exit-codes.ts';
import { DEFAULT_HOST, DEFAULT_PORT } from './serve.ts';

// The usage text says each default and exit code from the constant the code uses (a test holds them equal).
const { hotDays, hotRecentMax, mediaBudgetMb, logLevel, accountRateLimit, stationRateLimit, syncIntervalMs } = STARTUP_SETTINGS;
const exitLines = (codes: Record<string, { code: number; meaning: string }>, indent: string) =>
  Object.values(codes)
    .sort((a, b) => a.code - b.code)
    .map(({ code, meaning }) => `${indent}${code}  ${meaning}`)
    .join('\n');

export const USAGE = `Usage: returns-station <command> [options]

Commands:
  serve [--host H] [--port P] [--data-dir D] [--tls-cert F --tls-key F] [--demo] [--media-budget-mb N]
        [--new-store] [--hot-days N] [--hot-recent-max N]
      Start the headless station (API and UI). When ready, prints on stdout
      "Returns station listening on http://H:P", then a UI link carrying a station token.
      A --host beyond loopback (e.g. 0.0.0.0, the site's network) serves HTTPS only: with the
      site's certificate (--tls-cert, PEM chain, and its unencrypted --tls-key), else with a
      certificate authority the station makes once in D/tls/; a third line then prints the
      SHA-256 fingerprint of the certificate stations and handhelds trust. --tls-cert on
      loopback serves HTTPS there too.
      Logs go to stderr. --demo seeds demo data into an empty store. --${mediaBudgetMb.flag} caps
      the media folder (also ${mediaBudgetMb.env}). --new-store begins an empty
      station where a station.db is missing although a station ran there before.
      --${hotDays.flag} N keeps records changed in the last N days in memory (default ${DEFAULT_HOT_DAYS}; 0: only
      open and unsent ones; also ${hotDays.env}); older ones are read from disk.
      --${hotRecentMax.flag} N keeps at most N received returns' records in memory for a recent
      change, the most recently changed (default ${DEFAULT_HOT_RECENT_LIMIT}; also ${hotRecentMax.env}).
  token create (--account A | --station) [--name N] [--expires-in-days N] [--data-dir D]
      Print a new token, alone, on stdout. It is shown once; only its hash is stored.
  token list [--data-dir D]
  token revoke ID [--data-dir D]
  operator add --name N [--badge B] [--key K] [--supervisor --pin P] [--data-dir D]
      Add a dock worker; prints the operator id (the processor_id of what they receive).
      --key K: the number key 1-9 that signs them in. --supervisor: a supervisor (needs --badge
      and --pin, ${PIN_DIGITS.min}-${PIN_DIGITS.max} digits; --pin - reads it from stdin), who may change settings, rules,
      printers, tokens, the upstream and the workers.
  operator set ID [--name N] [--badge B|none] [--key K|none] [--pin P] [--supervisor|--worker]
        [--activate|--deactivate] [--data-dir D]
      Change a worker: --pin resets a PIN (ending that supervisor's sessions).
  operator list [--data-dir D]
  upstream set (--returns-url URL --base-url URL | --url URL) (--token T | --token-file F | --token-stdin)
        --account A [--account B ...] [--data-dir D]
      Sync with an upstream returns service (a running serve syncs on its own): manual returns at
      {returns_url}/returns, packages at {base_url}/v1/accounts/{id}/return_packages. --url URL is
      a Returns Station: returns_url URL, base_url URL/api.
  upstream show [--data-dir D]      (both addresses; never the token)
  upstream remove [--data-dir D]
  site invite [--data-dir D]
      On a hub (running or not): print a join code alone on stdout (works once, for ${JOIN_CODE_MINUTES} minutes);
      the hub's address and certificate authority fingerprint on stderr.
  site join https://HUB:PORT --code C [--name N] [--data-dir D]
      On a station (running or not): join the hub's site. Pins the hub's certificate authority,
      bound to the code (a machine in the middle is refused, nothing stored), takes a token for
      every account of the site and syncs with the hub from now on.
  site show [--data-dir D]      (a hub's members, last contact, pending; a station's hub)
  site remove ID [--data-dir D]  (on a hub: revokes the member's token; it keeps its unsent work)
  site promote MEMBER [--data-dir D]
      On the hub (running or not): move the hub to that member. This station stops syncing with
      the returns service at once and keeps its uplink for the member to take.
  site promote [--data-dir D]
      On the member named (running or not): send the hub everything, pull everything it holds,
      take its uplink and sync with the returns service from now on. It takes members where it
      listens with --host; the other stations (the old hub too) join it with a code from its
      site invite.
  site promote --without-hub (--returns-url URL --base-url URL | --url URL)
               (--token T | --token-file F | --token-stdin) --account A [--account B...] [--data-dir D]
      On a member whose hub's machine is lost (running or not): take the returns service given
      (as upstream set takes it) as the site's uplink. What only the lost hub held is lost.
  handheld pair [--name NAME] [--data-dir D]
      A pairing code for a handheld (running or not): the code alone on stdout (works once, for
      ${PAIRING_CODE_MINUTES} minutes), the address to open on the handheld on stderr. The handheld gets a token of its
      own, named NAME (without --name, the name typed on the handheld; unique among the paired
      handhelds): token list shows it as "handheld: NAME", token revoke ends it.
  sync --once [--data-dir D]
      One complete sync round (every list read to its end, every waiting change tried), then a
      summary. Its exit code, the most serious outcome winning:
${exitLines(SYNC_EXIT, '        ')}
  help

Defaults: --host ${DEFAULT_HOST}, --port ${DEFAULT_PORT}, --data-dir $RETURNS_STATION_DATA_DIR or the platform's
application-data folder. Only one process may hold a data directory: token, operator and site
commands talk to a running station through its API (as an administrator); upstream and sync need it stopped.

Exit codes of every command:
${exitLines(EXIT, '  ')}

Environment: ${logLevel.env} (${logLevel.expect}),
${accountRateLimit.env} and ${stationRateLimit.env} (requests per hour),
${syncIntervalMs.env} (pull interval of serve, default ${DEFAULT_PULL_INTERVAL_MS}).
`;
