import type { ApiClient } from '#shared/api/client.ts';
import type { PrinterSetting } from '#shared/api/printing.ts';
import type { OpenPdf } from './printing.ts';

/*
 * A package's labels right after it was received, said plainly at the dock
 * (docs/operator-guide.md, Printers and labels): with the browser as the printer nothing is queued,
 * so the worker is offered the package's labels as one PDF; with a label or system printer the
 * station queues them, and when they do not print within a few seconds the worker is told why
 * (the print job's reason, in words) and where they wait.
 */

export type AfterReceiptClient = Pick<ApiClient, 'packageLabelsPdf' | 'listPrintJobs'>;

export interface ReceivedPackage {
  accountId: number;
  packageId: number;
  trackingNumber: string;
}

/** How long the labels of a package just received are watched, and how often. */
const WATCH_MS = 4000;
const EVERY_MS = 250;

/** The first sentence of a print job's reason: "The printer 10.0.0.5 does not answer". */
export function shortProblem(problem: string): string {
  return problem.split(/[:.](\s|$)/)[0] ?? problem;
}

/**
 * Offers or watches the labels of `received`. Resolves to what the worker should be told: null when
 * all is well (the labels printed, or none were made), else a warning or the PDF offered.
 */
export async function labelsAfterReceipt(
  client: AfterReceiptClient,
  received: ReceivedPackage,
  printer: PrinterSetting,
  openPdf: OpenPdf,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<string | null> {
  const { trackingNumber } = received;
  if (printer.kind === 'browser') {
    // No unit with an id (nothing to label) or no answer: nothing to offer; the receipt stands.
    const pdf = await client.packageLabelsPdf(received.accountId, received.packageId).catch(() => null);
    if (pdf) openPdf(pdf, `Labels of ${trackingNumber}`);
    return null;
  }
  let problem: string | null = null;
  let notPrinted = 0;
  for (let waited = 0; waited <= WATCH_MS; waited += EVERY_MS) {
    const { data } = await client.listPrintJobs({ state: ['waiting', 'sending'], per_page: 100 });
    const mine = data.filter((job) => job.return_package_id === received.packageId && job.account_id === received.accountId);
    notPrinted = mine.length;
    problem = mine.find((job) => job.last_error !== null)?.last_error ?? null;
    if (notPrinted === 0 || problem !== null) break;
    await wait(EVERY_MS);
  }
  if (notPrinted === 0) return null;
  const labels = `${notPrinted} label${notPrinted === 1 ? '' : 's'}`;
  const why = problem === null ? 'the printer has not taken them yet' : shortProblem(problem);
  return `${trackingNumber} is received, but its ${labels} did not print: ${why}. They wait in the print queue (Alt+L) and print when the printer answers.`;
}
