import { useSession } from '../session/session-store.ts';
import { useNav } from '../state/nav-store.ts';
import { useStationLink } from '../state/station-link.ts';
import { type HeldScan, useHeldScans } from './held-scans.ts';
import { usePackage } from './page-package.ts';
import { scanQueue, submitScan } from './scan-router.ts';

/*
 * When the station answers again, the oldest held parcel opens as if it were scanned now — but only
 * for a worker who is free: signed in, on the scan screen, no package open, no scan being handled and
 * nothing typed. A worker who went on finds the held scans listed on the scan screen instead.
 */

/** Whether the worker is waiting for the next parcel: a held one may open without getting in the way. */
function workerIsFree(typed: () => string): boolean {
  return (
    useSession.getState().operator !== null &&
    useNav.getState().screen === 'scan' &&
    usePackage.getState().current === null &&
    scanQueue.size === 0 &&
    typed() === ''
  );
}

/** Opens `held` now: taken off the list first, so it is never opened twice (offline again, it is held again). */
export function openHeld(held: HeldScan): void {
  if (useHeldScans.getState().take(held.code)) submitScan(held.code);
}

/**
 * Follows the station link: each time the station answers after being away (or at the page's first
 * answer), the oldest held parcel opens for a free worker. `typed` is what the scan field holds.
 */
export function releaseHeldScansWhenAnswered(typed: () => string): () => void {
  return useStationLink.subscribe((now, before) => {
    if (now.link !== 'online' || before.link === 'online') return;
    const oldest = useHeldScans.getState().scans[0];
    if (oldest && workerIsFree(typed)) openHeld(oldest);
  });
}
