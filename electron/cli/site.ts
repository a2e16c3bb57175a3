import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ApiError } from '#shared/api/client.ts';
import { parseStrictId } from '#shared/api/common.ts';
import type { SiteInvite, SiteView } from '#shared/api/site.ts';
import { defaultDataDir } from '../station/data-dir.ts';
import { ContractError } from '../station/errors.ts';
import { createInvite, removeMember } from '../station/site/hub.ts';
import { joinHub, SiteJoinError } from '../station/site/join.ts';
import { ownWorkersOf } from '../station/site/site-config.ts';
import { currentMemberId, saveJoinedSite, siteViewOf } from '../station/site/membership.ts';
import { boundTables } from '../station/store/index.ts';
import { createSyncEngine } from '../station/sync/engine.ts';
import { sha256Fingerprint } from '../station/tls/pinned-fetch.ts';
import { TLS_DIR } from '../station/tls/station-certificates.ts';
import { CommandRefused, UsageError } from './cli-error.ts';
import { printTable, runningStation } from './tokens.ts';
import { withStationStore } from './with-station-store.ts';

/** `returns-station site invite|join|show|remove`: on the hub or on a station, running or not. */
export async function siteCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    strict: true,
    allowPositionals: action === 'join' || action === 'remove',
    options: { code: { type: 'string' }, name: { type: 'string' }, 'data-dir': { type: 'string' } },
  });
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const running = runningStation(dataDir);
  try {
    switch (action) {
      case 'invite':
        return printInvite(running ? await running.createSiteInvite() : await inviteStopped(dataDir));
      case 'join': {
        const hubUrl = positionals[0];
        if (hubUrl === undefined || positionals.length > 1) throw new UsageError('site join needs the hub\'s address: returns-station site join https://HUB:PORT --code CODE.');
        if (values.code === undefined) throw new UsageError('site join needs --code CODE (the join code the hub showed).');
        const input = { hub_url: hubUrl, code: values.code, ...(values.name === undefined ? {} : { name: values.name }) };
        const view = running ? await running.joinHub(input) : await joinStopped(dataDir, input);
        process.stderr.write(`Joined the site: syncing with ${view.hub?.url ?? hubUrl} as member ${view.hub?.member_id ?? '?'}; the hub's certificate authority ${view.hub?.ca_sha256 ?? '?'} is pinned.\n`);
        return;
      }
      case 'show':
        return printSite(running ? await running.site() : await showStopped(dataDir));
      case 'remove': {
        const id = positionals[0] === undefined ? null : parseStrictId(positionals[0]);
        if (id === null) throw new UsageError(`site remove needs a member id (site show lists them), got "${positionals[0] ?? ''}".`);
        if (running) await running.removeSiteMember(id);
        else await withStationStore(dataDir, 'returns-station site remove', (ctx) => ctx.store.write((tx) => removeMember(boundTables(tx), ctx.clock.now(), id)));
        process.stderr.write(`Member ${id} removed from the site: its token is revoked; it keeps its unsent changes.\n`);
        return;
      }
      default:
        throw new UsageError(`Unknown site action "${action ?? ''}": use invite, join, show or remove.`);
    }
  } catch (error) {
    if (error instanceof ApiError) throw new CommandRefused(`The running station refused: ${error.message}`);
    if (error instanceof SiteJoinError) throw new CommandRefused(`${error.message} Nothing was stored.`);
    if (error instanceof ContractError) throw new CommandRefused(error.body.details.message);
    throw error;
  }
}

/** A stopped hub: the code is made in its store; the fingerprint is its own authority's when it has made one. */
async function inviteStopped(dataDir: string): Promise<SiteInvite> {
  const invite = await withStationStore(dataDir, 'returns-station site invite', (ctx) => ctx.store.write((tx) => createInvite(boundTables(tx), ctx.clock.now())));
  const caFile = join(dataDir, TLS_DIR, 'site-ca.pem');
  return { ...invite, hub_url: null, ca_sha256: existsSync(caFile) ? sha256Fingerprint(readFileSync(caFile, 'utf8')) : null };
}

/** A stopped station: joins under the data directory's lock, so that what the hub issues is stored or the join fails. */
async function joinStopped(dataDir: string, input: { hub_url: string; code: string; name?: string }): Promise<SiteView> {
  return withStationStore(dataDir, 'returns-station site join', async (ctx) => {
    const settings = await joinHub({ hubUrl: input.hub_url, code: input.code, ...(input.name === undefined ? {} : { name: input.name }), previousMemberId: await currentMemberId(ctx.store.tables), workers: await ownWorkersOf(ctx.store.tables) });
    await ctx.store.write((tx) => saveJoinedSite(boundTables(tx), settings, ctx.clock.now()));
    return siteViewOf(ctx.store.tables, (await createSyncEngine({ store: ctx.store, clock: ctx.clock }).refreshStatus()).pending_changes);
  });
}

function showStopped(dataDir: string): Promise<SiteView> {
  return withStationStore(dataDir, 'returns-station site show', async (ctx) =>
    siteViewOf(ctx.store.tables, (await createSyncEngine({ store: ctx.store, clock: ctx.clock }).refreshStatus()).pending_changes),
  );
}

function printInvite(invite: SiteInvite): void {
  // The code alone on stdout (CODE=$(returns-station site invite)); how to use it on stderr.
  process.stdout.write(`${invite.code}\n`);
  const lines = [
    `Join code: ${invite.code} (works once, until ${invite.expires_at})`,
    `Hub address: ${invite.hub_url ?? 'where `serve --host` listens (start the hub to see it)'}`,
    `Hub certificate authority (SHA-256): ${invite.ca_sha256 ?? 'none yet: the hub makes it at its first start with --host (or serves the site\'s)'}`,
    `On the joining station: returns-station site join ${invite.hub_url ?? 'https://HUB:PORT'} --code ${invite.code}`,
  ];
  process.stderr.write(`${lines.join('\n')}\n`);
}

function printSite(view: SiteView): void {
  const lines: string[] = [];
  if (view.hub) {
    lines.push(`hub: ${view.hub.url}`, `hub certificate authority (SHA-256): ${view.hub.ca_sha256}`, `member id: ${view.hub.member_id}`);
    if (view.hub.next_ca_sha256) lines.push(`its successor, trusted before the hub serves it (SHA-256): ${view.hub.next_ca_sha256}`);
    lines.push(view.hub.removed ? 'state: removed from the site by the hub (its unsent changes stay here)' : 'state: member');
  }
  lines.push(`pending changes: ${view.pending_changes}`);
  if (!view.hub && view.members.length === 0) lines.push('This station is in no site: no hub joined, no members.');
  process.stdout.write(`${lines.join('\n')}\n`);
  if (view.members.length > 0) {
    process.stdout.write('members:\n');
    printTable(
      ['ID', 'NAME', 'JOINED', 'LAST CONTACT', 'PENDING', 'STATE'],
      view.members.map((m) => [String(m.id), m.name, m.joined_at, m.last_contact_at ?? 'never', m.pending_changes === null ? '?' : String(m.pending_changes), m.removed_at ? `removed ${m.removed_at}` : 'member']),
    );
  }
}

