import { pageClient } from '../api/station-api.ts';
import { openPdfInBrowser } from '../printing/pdf-view.ts';
import { outbox, usePackage } from '../receiving/page-package.ts';
import { downloadBlob } from '../state/download.ts';
import { notify } from '../state/feedback-store.ts';
import { type EvidenceTarget, saveEvidencePack } from './evidence-pack.ts';

/** How long the pack waits for the worker's last changes to reach the station (as F5 waits for a unit id). */
const SEND_WAIT_MS = 3000;

/** The evidence pack of a package, on the page's client: saved as a download, its PDF shown; said in the feedback line. */
export async function evidencePackOf(target: EvidenceTarget): Promise<void> {
  notify('pending', `Making the evidence pack of ${target.trackingNumber}…`);
  const outcome = await saveEvidencePack(pageClient, target, downloadBlob, openPdfInBrowser);
  notify(outcome.ok ? 'success' : 'error', outcome.message);
}

/** Alt+E on the package screen: the open package's pack, once what the worker just did has reached the station. */
export async function evidencePackOfOpenPackage(): Promise<void> {
  const current = usePackage.getState().current;
  if (!current) return;
  await Promise.race([outbox.idle(), new Promise((resolve) => setTimeout(resolve, SEND_WAIT_MS))]);
  await evidencePackOf({ accountId: current.accountId, packageId: current.pkg.id, trackingNumber: current.pkg.tracking_number });
}
