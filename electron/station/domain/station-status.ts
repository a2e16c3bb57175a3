import type { StationStatus, StationStorage } from '#shared/api/station.ts';
import type { MediaUsage } from '../media/index.ts';
import { STATION_NAME, STATION_VERSION } from '../version.ts';
import type { DomainContext } from './context.ts';
import { printingStatus } from './print-jobs.ts';
import { stationSettings } from './station-settings.ts';
import { SYNC_DISABLED } from './sync-port.ts';

/** The station's local calendar day and the UTC instant it began: "today" on the dock. */
function localToday(now: Date): { date: string; since: string } {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const pad = (n: number) => String(n).padStart(2, '0');
  return { date: `${midnight.getFullYear()}-${pad(midnight.getMonth() + 1)}-${pad(midnight.getDate())}`, since: midnight.toISOString() };
}

/**
 * `GET /api/v1/station`. Today's counts are station-wide: received = packages received since local
 * midnight; in progress = packages at the dock (`delivered`) not yet received.
 */
export async function stationStatus(ctx: DomainContext): Promise<StationStatus> {
  const { store, clock } = ctx;
  const today = localToday(new Date(clock.now()));
  const accounts = await store.accounts.all();
  return {
    name: STATION_NAME,
    version: STATION_VERSION,
    accounts: accounts.map((account) => ({ id: account.id })),
    today: {
      date: today.date,
      received: store.count('return_packages', { status: ['received'], processed_since: today.since }),
      in_progress: store.count('return_packages', { status: ['delivered'] }),
    },
    sync: ctx.sync ? await ctx.sync.refreshStatus() : SYNC_DISABLED,
    storage: storageState(await store.media.usage()),
    settings: await stationSettings(ctx),
    printing: await printingStatus(ctx.store.tables),
    address: ctx.address?.() ?? null,
  };
}

const GIB = 1024 ** 3;
/** Below this much free disk an upload may fail mid-way: the station reports itself full. */
export const DISK_FULL_BELOW_BYTES = 64 * 1024 * 1024;

export function storageState(usage: MediaUsage): StationStorage {
  const budgetLeft = usage.budgetBytes === null ? null : usage.budgetBytes - usage.usedBytes;
  const full = (budgetLeft !== null && budgetLeft <= 0) || (usage.diskFreeBytes !== null && usage.diskFreeBytes < DISK_FULL_BELOW_BYTES);
  const low =
    (budgetLeft !== null && usage.budgetBytes !== null && budgetLeft < usage.budgetBytes / 10) || (usage.diskFreeBytes !== null && usage.diskFreeBytes < GIB);
  return {
    media_bytes: Math.max(0, usage.usedBytes),
    media_budget_bytes: usage.budgetBytes,
    disk_free_bytes: usage.diskFreeBytes === null ? null : Math.min(usage.diskFreeBytes, Number.MAX_SAFE_INTEGER),
    state: full ? 'full' : low ? 'low' : 'ok',
  };
}
