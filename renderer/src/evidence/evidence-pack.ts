import type { ApiClient } from '#shared/api/client.ts';
import { describeError } from '../api/describe-error.ts';

/*
 * A package's evidence pack from the dock (docs/operator-guide.md, The evidence pack): the zip (the
 * PDF and every photo full size) saved as a file, and the PDF opened to read or print. Plain
 * functions over an injected client, as printing's: the key and the review list call them.
 */

export type EvidenceClient = Pick<ApiClient, 'evidencePdf' | 'evidenceZip'>;
/** Saves a file for the person (the page's: a download; the desktop app asks where). */
export type SaveBlob = (name: string, blob: Blob) => void;
/** Shows a PDF (the page's: a tab of its own, else the corner's link). */
export type ShowPdf = (pdf: Blob, title: string) => void;

export interface EvidenceTarget {
  accountId: number;
  packageId: number;
  trackingNumber: string;
}

/** A tracking number as the station names the pack's files (api/routes/evidence.ts): letters, digits, `-`, `_`. */
export function evidenceFileName(trackingNumber: string, extension: 'zip' | 'pdf'): string {
  return `evidence-${trackingNumber.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60)}.${extension}`;
}

/** Fetches the pack, saves the zip and shows the PDF; says what happened in words. */
export async function saveEvidencePack(
  client: EvidenceClient,
  target: EvidenceTarget,
  save: SaveBlob,
  show: ShowPdf,
): Promise<{ ok: boolean; message: string }> {
  try {
    const zip = await client.evidenceZip(target.accountId, target.packageId);
    save(evidenceFileName(target.trackingNumber, 'zip'), zip);
    const pdf = await client.evidencePdf(target.accountId, target.packageId);
    show(pdf, `Evidence ${target.trackingNumber}`);
    return { ok: true, message: `Evidence pack saved: ${evidenceFileName(target.trackingNumber, 'zip')} (the PDF and the photos).` };
  } catch (error) {
    return { ok: false, message: `The evidence pack of ${target.trackingNumber} could not be made: ${describeError(error)}` };
  }
}
