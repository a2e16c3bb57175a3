import type { FastifyInstance } from 'fastify';
import { DEFAULT_RATE_LIMITS } from './api/rate-limit.ts';
import { isLoopbackHost } from './api/http/host-guard.ts';
import { seedCatalog } from './domain/catalog.ts';
import { loadConfigCache } from './domain/config-cache.ts';
import { systemClock, type Clock } from './domain/clock.ts';
import type { DomainContext } from './domain/context.ts';
import { type DataDirLock, lockDataDir } from './data-dir-lock.ts';
import { newStoreRefusal } from './data-dir-check.ts';
import { freedPages } from './heap/freed-pages.ts';
import { boundHeapGrowth } from './heap/growth.ts';
import { semiSpaceGivenToNode } from './heap/young-generation.ts';
import { type Housekeeping, startHousekeeping } from './housekeeping.ts';
import type { SystemPrinter } from './printing/printers.ts';
import { type PrintQueue, startPrintQueue } from './printing/queue.ts';
import { buildServer, type ServerOptions } from './server.ts';
import { openStore, type OpenStoreOptions, type StationStore, storeStatsOf } from './store/index.ts';
import { createSyncEngine, type SyncEngine } from './sync/sync-engine.ts';
import { takeOverAsHub } from './site/take-over.ts';
import { displayUrl, upgradeUpstreamSettings } from './sync/settings.ts';
import { fillOperatorUids } from './domain/operators.ts';
import { moveOldWeighings } from './domain/package-weights.ts';
import { type SyncScheduler, startSyncScheduler } from './sync/scheduler.ts';
import { type SiteAuthorityFollow, startSiteAuthorityFollow } from './site/authority-follow.ts';
import { type SiteConfigFollow, startSiteConfigFollow } from './site/site-config-follow.ts';
import { siteAddressName } from './tls/serving-names.ts';
import type { Server as HttpsServer } from 'node:https';
import { startTlsRenewal, type TlsRenewal } from './tls/renewal.ts';
import { type ServingTls, servingTls, type TlsRequest } from './tls/serving-tls.ts';
import type { StationAddress } from '#shared/api/station.ts';
import type { SiteAuthorities } from '#shared/api/site.ts';
import { sha256Fingerprint } from './tls/pinned-fetch.ts';

export interface StationOptions extends ServerOptions {
  dataDir: string;
  /** Names the process in the data-directory lock, for the message a second process prints. */
  command?: string;
  clock?: Clock;
  /** Begin a new, empty store even where a station has run before (its database is gone). */
  newStore?: boolean;
  /** Most bytes of media the station keeps; uploads beyond are refused with 503. Null: no budget. */
  mediaBudgetBytes?: number | null;
  /** Sync with the upstream while open (default true); the pull interval in ms. */
  sync?: boolean;
  syncPullIntervalMs?: number;
  /** How far behind its cursor a pull re-reads; tests shorten it. */
  syncOverlapMs?: number;
  /**
   * The hot set's window in days (default 14), the most returns kept in memory for a recent change
   * alone (default 100,000; null: no limit), and the sweep interval (docs/decisions/store-hot-set.md).
   */
  hotDays?: number;
  hotRecentLimit?: number | null;
  hotSweepMs?: number;
  /** The rows a search by any part of a list reads at most to plan and count before its total is "at least" (default 1,000). */
  listCountBudget?: number;
  /**
   * How far V8's old generation may grow past the live heap before a full GC, in percent (default
   * 50); after each sweep that shed records the heap pages GCs freed are given back (heap/). Null:
   * V8's own rules (growth up to 4×, freed pages kept until the process idles). Process-wide: the
   * station owns its process (docs/decisions/memory-over-a-year.md).
   */
  heapGrowthPercent?: number | null;
  /** The desktop app's system printers (the core process asks the main process); absent under `serve`. */
  systemPrinter?: SystemPrinter;
  /** Serve HTTPS (electron/station/tls/): required beyond loopback (`tlsRequestFor`); plain HTTP without. */
  tls?: TlsRequest | null;
  /** While serving HTTPS, look this often whether the serving certificate needs renewing (default RENEWAL_CHECK_MS, 12 h; tls/renewal.ts). */
  tlsRenewalCheckMs?: number;
  /** The print queue's first and longest wait after a failed send (default 2 s and 60 s). */
  printRetryFirstMs?: number;
  printRetryMaxMs?: number;
}

/** The station core: the data directory it owns, its store, and the HTTP server over them. */
export interface Station {
  readonly dataDir: string;
  readonly store: StationStore;
  readonly ctx: DomainContext;
  readonly server: FastifyInstance;
  /** What it serves TLS with and what clients pin, as renewed while it runs; null when it serves plain HTTP (loopback). */
  readonly tls: ServingTls | null;
  /**
   * Starts listening; resolves to the origin, with the real port when `port` is 0 (https when
   * serving TLS; for a wildcard bind, named by the machine's first site address).
   */
  listen(host: string, port: number): Promise<string>;
  /**
   * Stops accepting, lets in-flight requests finish for up to `deadlineMs` (default 5 s), then cuts
   * every connection still open (a client trickling bytes cannot hold the station up), flushes the
   * store and releases the data directory. Resolves when all of that is done; calling it again
   * returns the same promise.
   */
  close(options?: CloseOptions): Promise<void>;
}

export interface CloseOptions {
  /** How long in-flight requests may take before their connections are cut. */
  deadlineMs?: number;
}

export const DEFAULT_CLOSE_DEADLINE_MS = 5000;

/**
 * Opens a station on a data directory: takes its lock (a second process is refused, naming the
 * holder), opens the durable store, seeds configuration on first use, builds the server, and starts
 * housekeeping and the sync scheduler.
 */
export async function openStation(options: StationOptions): Promise<Station> {
  const heapGrowth = boundHeapGrowth(options.heapGrowthPercent);
  const lock = lockDataDir(options.dataDir, options.command ?? 'returns-station');
  let store: StationStore | undefined;
  // The server's logger exists only after the store is open; sweeps start later still.
  let onShed = (_returns: number): void => {};
  try {
    const clock = options.clock ?? systemClock;
    // Bad certificate files are refused before the store opens; the station's own are made under the lock.
    const tls = options.tls ? await servingTls(options.tls, options.dataDir, Date.parse(clock.now())) : null;
    store = await openStore(storeOptionsOf(options, lock, clock, (returns) => onShed(returns)));
    await seedCatalog(store);
    // Settings stored with one URL (before the spec's two addresses) are rewritten before sync reads them.
    const upgradedUpstream = await upgradeUpstreamSettings(store);
    // Operators stored before stable ids get theirs (docs/decisions/supervisor.md).
    await fillOperatorUids(store);
    // Weighings kept beside their packages before the weight check are moved into the packages' fields.
    await moveOldWeighings(store);
    // The server's log, once it exists (the engine logs only from its rounds, which start after it).
    const syncLog = { warn: (_message: string): void => undefined };
    const sync = createSyncEngine({
      store,
      clock,
      log: (message) => syncLog.warn(message),
      ...(options.syncOverlapMs !== undefined ? { overlapMs: options.syncOverlapMs } : {}),
      ...(options.syncPullIntervalMs !== undefined ? { idleEveryMs: options.syncPullIntervalMs } : {}),
    });
    // The print queue starts with the background work; until then a nudge has nothing to wake.
    const printing = { queue: undefined as PrintQueue | undefined };
    const socket: SocketState = { loopback: false, closing: false, address: null };
    const served = { tls };
    const ctx: DomainContext = {
      store,
      clock,
      config: await loadConfigCache(store),
      sync,
      printing: { nudge: () => printing.queue?.nudge() },
      address: () => socket.address,
      siteAuthorities: () => served.tls && siteAuthoritiesOf(served.tls),
      takeOverAsHub: (input) => takeOverAsHub(ctx, sync, input),
    };
    const server = await buildServer({
      ...options,
      https: tls ? { key: tls.key, cert: tls.cert } : undefined,
      ctx,
      rateLimits: { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
      isBoundToLoopback: () => socket.loopback,
      isClosing: () => socket.closing,
    });
    syncLog.warn = (message) => server.log.warn(message);
    // The young generation is sized when node starts (bin/returns-station.js, heap/young-generation.ts).
    server.log.debug({ heap_growth: heapGrowth, young_generation: { semi_space_mb: semiSpaceGivenToNode() } }, 'V8 heap growth and young generation');
    const { load: loaded, hotSet, fastPaths = [] } = storeStatsOf(store);
    // Which fast paths through fake-indexeddb's internals this start uses (docs/decisions/store-fast-paths.md).
    server.log.info({ fast_paths: fastPaths }, `store fast paths: ${fastPaths.length > 0 ? fastPaths.join(', ') : 'none (public Dexie path only)'}`);
    // Every start says what its hot set holds and the window it keeps (a new store holds nothing yet).
    server.log.info(
      {
        returns_in_memory: loaded?.hotReturns ?? 0,
        outbox_slots_in_memory: loaded?.outboxSlots ?? 0,
        hot_days: hotSet?.days,
        hot_recent_max: hotSet?.recentLimit,
      },
      'store open: the hot set is in memory, older records are read from disk',
    );
    if (tls) {
      const details = { tls: { source: tls.source, fingerprint_sha256: tls.trustSha256, serving_expires_at: tls.servedNotAfter, made: tls.made } };
      // The roll to the successor is said louder: the site's handhelds must trust the new fingerprint.
      if (tls.made === 'successor')
        server.log.warn(details, 'TLS: the site authority rolled to its successor, announced to the members before (handhelds must trust the new fingerprint)');
      else
        server.log.info(
          details,
          tls.made === 'authority'
            ? 'TLS: made a new site certificate authority (stations and handhelds pin its fingerprint)'
            : 'TLS: serving HTTPS; stations and handhelds pin this fingerprint',
        );
    }
    if (upgradedUpstream) {
      server.log.info(
        { returns_url: displayUrl(upgradedUpstream.returns_url), base_url: displayUrl(upgradedUpstream.base_url) },
        'upstream settings stored with one URL rewritten as the two addresses of a Returns Station',
      );
    }
    onShed = (returns) => {
      server.log.info({ returns }, 'hot set: records of returns that left it were shed from memory (they stay on disk)');
      if (heapGrowth.source !== 'v8') void freedPages.release();
    };
    const background = await startBackground(options, ctx, sync, server);
    if (tls && options.tls) {
      // Fastify was built with `https`: its server is node's https.Server.
      const https = server.server as unknown as HttpsServer;
      background.tlsRenewal = startTlsRenewal({
        request: options.tls,
        dataDir: options.dataDir,
        current: tls,
        now: () => Date.parse(clock.now()),
        apply(next) {
          https.setSecureContext({ key: next.key, cert: next.cert });
          served.tls = next;
          if (socket.address) socket.address = { ...socket.address, tls: addressTlsOf(next) };
        },
        log: server.log,
        ...(options.tlsRenewalCheckMs !== undefined ? { everyMs: options.tlsRenewalCheckMs } : {}),
      });
    }
    printing.queue = background.printQueue = startPrintQueue(ctx, {
      ...(options.systemPrinter ? { systemPrinter: options.systemPrinter } : {}),
      ...(options.printRetryFirstMs !== undefined ? { retryFirstMs: options.printRetryFirstMs } : {}),
      ...(options.printRetryMaxMs !== undefined ? { retryMaxMs: options.printRetryMaxMs } : {}),
      log: server.log,
    });
    return stationOf({ dataDir: options.dataDir, store, ctx, server, served, lock, socket, background });
  } catch (error) {
    await store?.close().catch(() => undefined);
    lock.release();
    throw error;
  }
}

/** What the server asks of its socket: whether it listens on loopback only, whether the station is closing, where it listens. */
interface SocketState {
  loopback: boolean;
  closing: boolean;
  address: StationAddress | null;
}

function storeOptionsOf(options: StationOptions, lock: DataDirLock, clock: Clock, onShed: (returns: number) => void): OpenStoreOptions {
  return {
    dataDir: options.dataDir,
    mediaBudgetBytes: options.mediaBudgetBytes ?? null,
    ...(options.listCountBudget !== undefined ? { listCountBudget: options.listCountBudget } : {}),
    refuseNewBecause: options.newStore ? null : newStoreRefusal(options.dataDir, lock.previousHolder),
    hotSet: {
      now: () => clock.now(),
      onShed,
      ...(options.hotDays !== undefined ? { days: options.hotDays } : {}),
      ...(options.hotRecentLimit !== undefined ? { recentLimit: options.hotRecentLimit } : {}),
      ...(options.hotSweepMs !== undefined ? { sweepMs: options.hotSweepMs } : {}),
    },
  };
}

interface Background {
  housekeeping: Housekeeping;
  scheduler: SyncScheduler | undefined;
  siteConfig: SiteConfigFollow | undefined;
  siteAuthorities?: SiteAuthorityFollow;
  printQueue?: PrintQueue;
  tlsRenewal?: TlsRenewal;
}

/** Housekeeping (one run before the station opens) and, unless turned off, the sync scheduler. */
async function startBackground(options: StationOptions, ctx: DomainContext, sync: SyncEngine, server: FastifyInstance): Promise<Background> {
  const { store, clock } = ctx;
  const housekeeping = startHousekeeping(store, clock, server.log);
  await housekeeping.runOnce();
  if (options.sync === false) return { housekeeping, scheduler: undefined, siteConfig: undefined };
  // A site's member takes its hub's workers, rules and rule-like settings (site/site-config-follow.ts).
  const siteConfig = startSiteConfigFollow(ctx, { log: (message) => server.log.info(message) });
  siteConfig.check();
  // And trusts the successor of its hub's authority before the hub serves it (site/authority-follow.ts).
  const siteAuthorities = startSiteAuthorityFollow(ctx, { log: (message) => server.log.info(message) });
  void siteAuthorities.check();
  const scheduler = startSyncScheduler(store, sync, {
    ...(options.syncPullIntervalMs !== undefined ? { pullIntervalMs: options.syncPullIntervalMs } : {}),
    log: (message) => server.log.warn(message),
    checkSiteConfig: () => siteConfig.check(),
  });
  return { housekeeping, scheduler, siteConfig, siteAuthorities };
}

interface OpenParts {
  dataDir: string;
  store: StationStore;
  ctx: DomainContext;
  server: FastifyInstance;
  /** What TLS is served now (renewal replaces it). */
  served: { tls: ServingTls | null };
  lock: DataDirLock;
  socket: SocketState;
  background: Background;
}

/** What a hub's members trust: the authority served and its successor. */
function siteAuthoritiesOf(tls: ServingTls): SiteAuthorities {
  return {
    current: { pem: tls.trustPem, sha256: tls.trustSha256 },
    next: tls.nextTrustPem === null ? null : { pem: tls.nextTrustPem, sha256: sha256Fingerprint(tls.nextTrustPem) },
  };
}

/** What the station's own API reports of the TLS it serves. */
function addressTlsOf(tls: ServingTls): NonNullable<StationAddress['tls']> {
  return { source: tls.source, fingerprint_sha256: tls.trustSha256, serving_certificate_expires_at: tls.servedNotAfter };
}

/** The open station's handle: listen, and a close that runs once. */
function stationOf({ dataDir, store, ctx, server, served, lock, socket, background }: OpenParts): Station {
  let closed: Promise<void> | undefined;
  return {
    dataDir,
    store,
    ctx,
    server,
    get tls() {
      return served.tls;
    },
    async listen(host, port) {
      const { tls } = served;
      await server.listen({ host, port });
      const address = server.server.address();
      if (address === null || typeof address === 'string') throw new Error('The station is not listening on TCP.');
      socket.loopback = isLoopbackHost(address.address);
      const name = siteAddressName(host);
      const origin = `${tls ? 'https' : 'http'}://${name.includes(':') ? `[${name}]` : name}:${address.port}`;
      socket.address = {
        origin,
        tls: tls && addressTlsOf(tls),
      };
      return origin;
    },
    close(closeOptions = {}) {
      closed ??= (async () => {
        socket.closing = true;
        background.housekeeping.stop();
        background.tlsRenewal?.stop();
        freedPages.stop();
        // Past the deadline every connection is cut; handlers still running finish their store
        // writes (store.close waits for them), only their answers are lost.
        const cut = setTimeout(() => {
          server.log.warn('shutdown deadline passed: closing the connections still open');
          server.server.closeAllConnections();
        }, closeOptions.deadlineMs ?? DEFAULT_CLOSE_DEADLINE_MS);
        try {
          await background.scheduler?.stop();
          await background.siteConfig?.stop();
          await background.siteAuthorities?.stop();
          await server.close();
          // After the server: no request makes a job now; a send under way records its outcome.
          await background.printQueue?.stop();
          await store.close();
        } finally {
          clearTimeout(cut);
          lock.release();
        }
      })();
      return closed;
    },
  };
}
