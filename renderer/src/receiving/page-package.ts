import { create } from 'zustand';
import { describeError } from '../api/describe-error.ts';
import { DOCK_RETRY } from '#shared/api/retry-policy.ts';
import { pageClient } from '../api/station-api.ts';
import { UploadQueue } from '../media/upload-queue.ts';
import { keepUploadsIn } from '../pending/kept-uploads.ts';
import { PackageOutbox, type PendingEntry } from '../pending/package-outbox.ts';
import { useDispositionRules } from '../state/disposition-rules.ts';
import { notify } from '../state/feedback-store.ts';
import { stationBack } from '../state/station-link.ts';
import type { Draft } from '../inspect/drafts.ts';
import { createPackageStore } from './package-store.ts';

/*
 * This page's instances of the package store, its outbox and its upload queue, wired to the page's
 * station client. The logic lives in the modules they are made from, which take the client as an
 * argument (and are tested against a real station); only this file knows the page's client.
 */

/** The packages whose work the station has not confirmed yet, in sending order (the scan screen lists them). */
export const usePending = create<{ entries: readonly PendingEntry[] }>()(() => ({ entries: [] }));

const client = pageClient;
/** Both queues retry as the dock does, and at once when the station answers again. */
const retry = { ...DOCK_RETRY, stationBack };

const unitsText = (units: number) => `${units} unit${units === 1 ? '' : 's'}`;

// Dexie is loaded after the first screen: the sign-in screen does not need it.
const pendingDb = import('../pending/pending-db.ts').then(({ PendingDb }) => new PendingDb());
const keptUploads = keepUploadsIn(pendingDb);

export const outbox = new PackageOutbox({
  api: client,
  db: pendingDb,
  retry,
  events: {
    onChange(entries) {
      usePending.setState({ entries });
      const before = usePackage.getState().drafts;
      usePackage.getState().outboxChanged();
      sayNewDuplicates(before, usePackage.getState().drafts);
    },
    onLateReceived(entry) {
      notify('success', `Received ${entry.trackingNumber} — ${unitsText(entry.units)} (sent now that the station answers).`);
    },
    onKept(accountId, packageId, drafts, unit) {
      usePackage.getState().unitKept(accountId, packageId, drafts, unit);
      const why = unit.put_confirmed ? 'was put in its bin' : 'has its label, made on another terminal';
      notify('error', `Not taken off: ${unit.unit_id ?? 'the unit'} ${why}. It is back on the list.`);
    },
    onLateRefused(entry, error) {
      notify(
        'error',
        `${entry.trackingNumber} was not ${entry.receiving ? 'received' : 'saved'}: ${describeError(error)} Reopen it from the list of work waiting to send.`,
      );
    },
  },
});

/** A serial the station found on another unit is said at once, in colour and sound, once. */
function sayNewDuplicates(before: readonly Draft[], after: readonly Draft[]): void {
  for (const draft of after) {
    const check = draft.serial_check;
    if (check?.result !== 'duplicate') continue;
    const was = before.find((d) => d.key === draft.key)?.serial_check;
    if (was?.result === 'duplicate' && was.message === check.message) continue;
    notify('error', `${check.message} The parcel is held for review.`);
  }
}

export const uploads = new UploadQueue({
  api: client,
  onChange: (list) => usePackage.setState({ uploads: list }),
  keeper: keptUploads,
  retry,
});

/** Sends again what an earlier page left unsent (a reload, a closed tab): line items and receives, then photos. */
export async function resumePendingWork(): Promise<void> {
  await outbox.restore();
  uploads.resume(await keptUploads.load());
}

export const usePackage = createPackageStore({
  outbox,
  uploads,
  deleteMedia: (accountId, packageId, mediaId) => client.deleteMedia(accountId, packageId, mediaId),
  dispositionRules: () => useDispositionRules.getState().rules,
});
