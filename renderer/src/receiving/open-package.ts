import { type ApiClient, ApiError } from '#shared/api/client.ts';
import type { ReturnRecord } from '#shared/api/returns.ts';
import type { PackageStatus } from '#shared/package-status.ts';
import { pageClient } from '../api/station-api.ts';
import { useNav } from '../state/nav-store.ts';
import { useStationLink } from '../state/station-link.ts';
import { weighOpenedPackage } from '../weighing/dock-weighing.ts';
import { useInProgress } from './in-progress-store.ts';
import type { OpenPackage } from './package-store.ts';
import { outbox, usePackage } from './page-package.ts';

/** A parcel scanned at the dock has arrived: these statuses move to `delivered` when it is opened. */
const ARRIVING: readonly PackageStatus[] = ['pending', 'in_transit'];

export interface PackageOpener {
  /** A return by id, or null when the station has no such return in that account. */
  fetchReturn(accountId: number, returnId: number): Promise<ReturnRecord | null>;
  /**
   * Opens a package on the bench: marks it arrived when it was still on its way, and fetches it with
   * its return. The (up to) three requests go out together, so opening waits for the slowest one only.
   */
  openPackage(accountId: number, packageId: number, status: PackageStatus, returnId: number): Promise<void>;
}

export type OpenerClient = Pick<ApiClient, 'getReturn' | 'getPackage' | 'updatePackage' | 'refreshPackage'>;

/** Opens packages on this page's bench, reading them through `client`. */
export function createPackageOpener(client: OpenerClient): PackageOpener {
  async function fetchReturn(accountId: number, returnId: number): Promise<ReturnRecord | null> {
    try {
      return await client.getReturn(accountId, returnId);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  }

  async function openPackage(accountId: number, packageId: number, status: PackageStatus, returnId: number): Promise<void> {
    // Fresh where it matters: the station reads this package from its upstream, if it has one. Not
    // awaited: the fresh values arrive as a `package.updated` event (live-events.ts → applyRemote).
    if (useStationLink.getState().status?.sync.state !== 'disabled') void client.refreshPackage(accountId, packageId).catch(() => undefined);
    const arriving = ARRIVING.includes(status);
    const [moved, pkg, ret] = await Promise.all([
      arriving ? client.updatePackage(accountId, packageId, { status: 'delivered' }) : Promise.resolve(null),
      client.getPackage(accountId, packageId),
      fetchReturn(accountId, returnId),
    ]);
    const fresh = moved ? { ...pkg, status: moved.status, actual_arrival: moved.actual_arrival, updated_at: moved.updated_at } : pkg;
    // Unsent drafts an earlier page left must be loaded before the package's drafts are chosen.
    await outbox.ready;
    const left = usePackage.getState().current;
    if (left && !(left.accountId === accountId && left.pkg.id === packageId)) leaveInProgress(left);
    useInProgress.getState().forget(accountId, packageId);
    usePackage.getState().open({ accountId, pkg: fresh, ret });
    useNav.getState().go('package');
    // The parcel on the scale is weighed now (weighing/).
    void weighOpenedPackage(accountId, fresh);
    if (arriving) void useStationLink.getState().refreshStatus();
  }

  return { fetchReturn, openPackage };
}

/** This page's opener. */
export const { fetchReturn, openPackage } = createPackageOpener(pageClient);

/** Lists a package the worker leaves unfinished on the scan screen; received and cancelled ones are done. */
export function leaveInProgress(left: OpenPackage): void {
  const { pkg } = left;
  if (pkg.status === 'received' || pkg.status === 'cancelled') return;
  useInProgress
    .getState()
    .leave({ account_id: left.accountId, id: pkg.id, return_id: pkg.return_id, status: pkg.status, tracking_number: pkg.tracking_number });
}
