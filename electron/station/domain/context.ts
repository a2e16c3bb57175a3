import { type StationStore, type BoundTables } from '../store/index.ts';
import type { SiteAuthorities, SiteUplink, TakeOverInput } from '#shared/api/site.ts';
import type { StationAddress } from '#shared/api/station.ts';
import type { Clock } from './clock.ts';
import type { ConfigCache } from './config-cache.ts';
import type { PrintPort } from './print-port.ts';
import type { SyncPort } from './sync-port.ts';

/** What every domain operation works with: the durable store and the station's clock. */
export interface DomainContext {
  readonly store: StationStore;
  readonly clock: Clock;
  readonly config: ConfigCache;
  /** Sync with the upstream; absent in tools that open the store without it. */
  readonly sync?: SyncPort;
  /** The label print queue; absent in tools that open the store without it. */
  readonly printing?: PrintPort;
  /** Where the station listens and what clients pin; null before it listens, absent in tools. */
  readonly address?: () => StationAddress | null;
  /** The site authorities a hub's members trust (its own authority and successor); null when it serves no TLS, absent in tools. */
  readonly siteAuthorities?: () => SiteAuthorities | null;
  /** A member becomes its site's hub (site/take-over.ts, between sync rounds); absent in tools. */
  readonly takeOverAsHub?: (input: TakeOverInput) => Promise<SiteUplink>;
}

/**
 * A transaction script: reads and writes through the tables of one store transaction, at one
 * instant. It resolves after the transaction is durable (store.write).
 */
export type Script<T> = (t: BoundTables, now: string) => Promise<T>;

export function runScript<T>(ctx: DomainContext, script: Script<T>): Promise<T> {
  return ctx.store.write((t) => script(t, ctx.clock.now()));
}
