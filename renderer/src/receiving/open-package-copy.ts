import { z } from 'zod';
import { ReturnPackageSchema } from '#shared/api/return-packages.ts';
import { ReturnRecordSchema } from '#shared/api/returns.ts';
import { useSession } from '../session/session-store.ts';
import { notify } from '../state/feedback-store.ts';
import { useNav } from '../state/nav-store.ts';
import { readSetting, writeSetting } from '../state/settings.ts';
import { useStationLink } from '../state/station-link.ts';
import { outbox, usePackage } from './page-package.ts';

/*
 * The package on the bench, kept in this page's local storage while it is open, so a page reloaded
 * while the station cannot be reached (a handheld whose Wi-Fi is down) reopens it with the worker's
 * held drafts. Without the customer's email: the dock works without it, and the device keeps no more of
 * a return than it needs. Removed when the package is closed, and at a load that reaches the station
 * (the screen then starts at the scan screen and the package is opened fresh from the station).
 */

const SETTING = 'open-package';
const CopySchema = z.object({ accountId: z.int(), pkg: ReturnPackageSchema, ret: ReturnRecordSchema.nullable() });

function read(): z.infer<typeof CopySchema> | null {
  try {
    return CopySchema.parse(JSON.parse(readSetting(SETTING) ?? 'null'));
  } catch {
    return null;
  }
}

/** Reopens the kept package, when the station cannot be reached and a worker is signed in. */
async function reopenFromCopy(): Promise<void> {
  const copy = read();
  if (!copy || !useSession.getState().operator) return;
  await outbox.ready;
  // Its receive waits for the station: it is listed as such, not reopened under the worker.
  if (outbox.isReceiving(copy.accountId, copy.pkg.id) || usePackage.getState().current) return;
  usePackage.getState().open(copy);
  useNav.getState().go('package');
  notify('pending', `${copy.pkg.tracking_number} reopened from this device’s copy: the station cannot be reached, so changes are held until it answers.`);
}

/** Keeps the open package's copy as it changes, and reopens it when the page loads without the station. */
export function keepOpenPackageCopy(): void {
  usePackage.subscribe((now, before) => {
    if (now.current === before.current) return;
    const open = now.current;
    writeSetting(SETTING, open ? JSON.stringify({ accountId: open.accountId, pkg: open.pkg, ret: open.ret && { ...open.ret, email: '' } }) : null);
  });
  const stop = useStationLink.subscribe((now) => {
    if (now.link === 'connecting') return;
    stop();
    if (now.link === 'online') writeSetting(SETTING, null);
    else void reopenFromCopy();
  });
}
