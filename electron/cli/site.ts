import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type ApiClient, ApiError } from '#shared/api/client.ts';
import { parseStrictId } from '#shared/api/common.ts';
import type { SiteInvite, SiteView, TakeOverInput } from '#shared/api/site.ts';
import {
  defaultDataDir,
  type DomainContext,
  ContractError,
  stepDown,
  createInvite,
  removeMember,
  joinHub,
  SiteJoinError,
  ownWorkersOf,
  currentMembership,
  saveJoinedSite,
  siteViewOf,
  TakeOverRefused,
  takeOverAsHub,
  createSyncEngine,
  displayUrl,
  sha256Fingerprint,
  TLS_DIR,
  withStationStore,
} from '../station/index.ts';
import { CommandRefused, UsageError } from './cli-error.ts';
import { printTable, runningStation } from './tokens.ts';
import { accountsFrom, addressesFrom, tokenFrom, UPSTREAM_OPTIONS } from './upstream.ts';

/** `returns-station site invite|join|show|remove`: on the hub or on a station, running or not. */
export async function siteCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    strict: true,
    allowPositionals: action === 'join' || action === 'remove' || action === 'promote',
    options: {
      code: { type: 'string' },
      name: { type: 'string' },
      'data-dir': { type: 'string' },
      // `site promote --without-hub`: the returns service, given as `upstream set` takes it.
      'without-hub': { type: 'boolean' },
      ...UPSTREAM_OPTIONS,
    },
  });
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const running = runningStation(dataDir);
  try {
    switch (action) {
      case 'invite':
        return printInvite(running ? await running.createSiteInvite() : await inviteStopped(dataDir));
      case 'join': {
        const hubUrl = positionals[0];
        if (hubUrl === undefined || positionals.length > 1)
          throw new UsageError("site join needs the hub's address: returns-station site join https://HUB:PORT --code CODE.");
        if (values.code === undefined) throw new UsageError('site join needs --code CODE (the join code the hub showed).');
        const input = { hub_url: hubUrl, code: values.code, ...(values.name === undefined ? {} : { name: values.name }) };
        const view = running ? await running.joinHub(input) : await joinStopped(dataDir, input);
        process.stderr.write(
          `Joined the site: syncing with ${view.hub?.url ?? hubUrl} as member ${view.hub?.member_id ?? '?'}; the hub's certificate authority ${view.hub?.ca_sha256 ?? '?'} is pinned.\n`,
        );
        return;
      }
      case 'show':
        return printSite(running ? await running.site() : await showStopped(dataDir));
      case 'remove': {
        const id = positionals[0] === undefined ? null : parseStrictId(positionals[0]);
        if (id === null) throw new UsageError(`site remove needs a member id (site show lists them), got "${positionals[0] ?? ''}".`);
        if (running) await running.removeSiteMember(id);
        else await withStationStore(dataDir, 'returns-station site remove', (ctx) => ctx.store.write((t) => removeMember(t, ctx.clock.now(), id)));
        process.stderr.write(`Member ${id} removed from the site: its token is revoked; it keeps its unsent changes.\n`);
        return;
      }
      case 'promote': {
        if (positionals.length > 1)
          throw new UsageError('site promote takes at most one member id: on the hub, the member that becomes the hub; on that member, none.');
        if (positionals[0] === undefined) return await promoteHere(dataDir, running, values['without-hub'] ? await withoutHubFrom(values) : {});
        if (values['without-hub']) throw new UsageError('site promote --without-hub runs on the member that becomes the hub, with no member id.');
        const id = parseStrictId(positionals[0]);
        if (id === null) throw new UsageError(`site promote needs a member id (site show lists them), got "${positionals[0]}".`);
        const view = running
          ? await running.promoteSiteMember({ member_id: id })
          : await withStationStore(dataDir, 'returns-station site promote', async (ctx) => {
              await ctx.store.write((t) => stepDown(t, ctx.clock.now(), id));
              return showOf(ctx);
            });
        process.stderr.write(
          `This hub stepped down: it sends nothing more to the returns service; its uplink waits for member ${id}${view.pending_changes > 0 ? ` (${view.pending_changes} changes held here reach the returns service through the new hub)` : ''}.\n` +
            `On member ${id} (stopped): returns-station site promote; then start it with --host and join the other stations to it.\n`,
        );
        return;
      }
      default:
        throw new UsageError(`Unknown site action "${action ?? ''}": use invite, join, show, remove or promote.`);
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
  const invite = await withStationStore(dataDir, 'returns-station site invite', (ctx) => ctx.store.write((t) => createInvite(t, ctx.clock.now())));
  const caFile = join(dataDir, TLS_DIR, 'site-ca.pem');
  return { ...invite, hub_url: null, ca_sha256: existsSync(caFile) ? sha256Fingerprint(readFileSync(caFile, 'utf8')) : null };
}

/** A stopped station: joins under the data directory's lock, so that what the hub issues is stored or the join fails. */
async function joinStopped(dataDir: string, input: { hub_url: string; code: string; name?: string }): Promise<SiteView> {
  return withStationStore(dataDir, 'returns-station site join', async (ctx) => {
    const settings = await joinHub({
      hubUrl: input.hub_url,
      code: input.code,
      ...(input.name === undefined ? {} : { name: input.name }),
      previous: await currentMembership(ctx.store.tables),
      workers: await ownWorkersOf(ctx.store.tables),
    });
    await ctx.store.write((t) => saveJoinedSite(t, settings, ctx.clock.now()));
    return siteViewOf(ctx.store.tables, (await createSyncEngine({ store: ctx.store, clock: ctx.clock }).refreshStatus()).pending_changes);
  });
}

function showStopped(dataDir: string): Promise<SiteView> {
  return withStationStore(dataDir, 'returns-station site show', showOf);
}

async function showOf(ctx: DomainContext): Promise<SiteView> {
  return siteViewOf(ctx.store.tables, (await createSyncEngine({ store: ctx.store, clock: ctx.clock }).refreshStatus()).pending_changes);
}

/** The returns service given to `site promote --without-hub`, in the API's shape (`upstream set`'s options). */
async function withoutHubFrom(
  values: Parameters<typeof addressesFrom>[0] & Parameters<typeof tokenFrom>[0] & { account?: string[] | undefined },
): Promise<TakeOverInput> {
  const accounts = accountsFrom(values, 'site promote --without-hub (the returns service, as upstream set takes it)');
  return { without_hub: { ...addressesFrom(values), token: await tokenFrom(values), accounts } };
}

/**
 * On the member that becomes the hub, running or not (docs/decisions/site-promote.md): the take-over
 * (site/take-over.ts) through the running station's API, else under the data directory's lock.
 */
async function promoteHere(dataDir: string, running: ApiClient | null, input: TakeOverInput): Promise<void> {
  let taken: { returns_url: string | null; accounts: number[] };
  if (running) taken = await running.takeOverAsHub(input);
  else {
    try {
      taken = await withStationStore(dataDir, 'returns-station site promote', (ctx) =>
        takeOverAsHub(ctx, createSyncEngine({ store: ctx.store, clock: ctx.clock }), input),
      );
    } catch (error) {
      if (error instanceof TakeOverRefused) throw new CommandRefused(error.message);
      throw error;
    }
  }
  process.stderr.write(
    `This station is the site's hub now: it syncs with ${taken.returns_url === null ? '?' : displayUrl(taken.returns_url)} (accounts ${taken.accounts.join(', ')}); its first rounds link its records to the returns service's before anything is sent.\n` +
      (input.without_hub
        ? 'What only the lost hub held (its own unsent work, photos kept only there) is lost with it. If its machine comes back, join it to this hub before it starts.\n'
        : '') +
      `${running ? 'Other stations join it where it listens with --host' : 'Start it with --host (the site network)'}; then on each other station${input.without_hub ? '' : ', the old hub too'}: returns-station site join https://THIS:PORT --code "$(returns-station site invite)" (run here).\n`,
  );
}

function printInvite(invite: SiteInvite): void {
  // The code alone on stdout (CODE=$(returns-station site invite)); how to use it on stderr.
  process.stdout.write(`${invite.code}\n`);
  const lines = [
    `Join code: ${invite.code} (works once, until ${invite.expires_at})`,
    `Hub address: ${invite.hub_url ?? 'where `serve --host` listens (start the hub to see it)'}`,
    `Hub certificate authority (SHA-256): ${invite.ca_sha256 ?? "none yet: the hub makes it at its first start with --host (or serves the site's)"}`,
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
  if (view.handover) {
    const { member_id: member, stepped_down_at: at, taken_at: taken } = view.handover;
    lines.push(
      `stepped down at ${at}: the uplink ${taken ? `was taken by member ${member} at ${taken}` : `waits for member ${member} (on it: returns-station site promote)`}`,
    );
  }
  lines.push(`pending changes: ${view.pending_changes}`);
  if (!view.hub && view.members.length === 0) lines.push('This station is in no site: no hub joined, no members.');
  process.stdout.write(`${lines.join('\n')}\n`);
  if (view.members.length > 0) {
    process.stdout.write('members:\n');
    printTable(
      ['ID', 'NAME', 'JOINED', 'LAST CONTACT', 'PENDING', 'STATE'],
      view.members.map((m) => [
        String(m.id),
        m.name,
        m.joined_at,
        m.last_contact_at ?? 'never',
        m.pending_changes === null ? '?' : String(m.pending_changes),
        m.removed_at ? `removed ${m.removed_at}` : 'member',
      ]),
    );
  }
}
