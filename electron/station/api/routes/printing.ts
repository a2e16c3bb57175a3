import type { FastifyInstance } from 'fastify';
import { API_ROUTES } from '#shared/api/routes.ts';
import type { DomainContext } from '../../domain/context.ts';
import {
  cancelPrintJob,
  currentPackageLabels,
  currentUnitLabel,
  enqueuePackageLabels,
  enqueueTestLabel,
  enqueueUnitLabel,
  listPrintJobs,
  printJobView,
  testLabel,
} from '../../domain/print-jobs.ts';
import { unitLabelPdf, unitLabelsPdf } from '../../printing/pdf.ts';
import { addRoute } from '../route.ts';

const PDF_HEADERS = (name: string) => ({ 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${name}.pdf"` });

/**
 * Labels and printing (docs/api-reference.md, Labels and printing): a unit's label (once; again
 * with `reprint`), a package's labels, a test print, a unit's or the test label as PDF, the queue.
 * A new job nudges the print queue once its write is durable.
 */
export function printingRoutes(server: FastifyInstance, ctx: DomainContext): void {
  const nudge = (afterCommit: (work: () => Promise<void>) => void) => afterCommit(async () => ctx.printing?.nudge());

  addRoute(server, ctx, API_ROUTES.createUnitLabel, async ({ t, now, params, body, afterCommit }) => {
    const { job, created } = await enqueueUnitLabel(t, now, { accountId: params.account_id, packageId: params.id, lineItemId: params.line_item_id }, body);
    if (created) nudge(afterCommit);
    return { status: created ? 201 : 200, body: printJobView(job) };
  });
  addRoute(server, ctx, API_ROUTES.getUnitLabelPdf, async ({ t, now, params }) => {
    const label = await currentUnitLabel(t, now, params.account_id, params.id, params.line_item_id);
    return { body: await unitLabelPdf(label), headers: PDF_HEADERS(`unit-${label.unit_id}`) };
  });
  addRoute(server, ctx, API_ROUTES.getPackageLabelsPdf, async ({ t, now, params }) => {
    const { pkg, labels } = await currentPackageLabels(t, now, params.account_id, params.id);
    return { body: await unitLabelsPdf(labels, `Labels of ${pkg.tracking_number}`), headers: PDF_HEADERS(`labels-${pkg.id}`) };
  });
  addRoute(server, ctx, API_ROUTES.createPackageLabels, async ({ t, now, params, body, afterCommit }) => {
    const jobs = await enqueuePackageLabels(t, now, params.account_id, params.id, body.operator_id);
    if (jobs.length > 0) nudge(afterCommit);
    return { body: { data: jobs.map(printJobView) } };
  });
  addRoute(server, ctx, API_ROUTES.createTestPrint, async ({ t, now, afterCommit }) => {
    const job = await enqueueTestLabel(t, now);
    nudge(afterCommit);
    return { body: printJobView(job) };
  });
  addRoute(server, ctx, API_ROUTES.getTestLabelPdf, async ({ now }) => ({ body: await unitLabelPdf(testLabel(now)), headers: PDF_HEADERS('test-label') }));
  addRoute(server, ctx, API_ROUTES.listPrintJobs, async ({ t, query }) => ({ body: await listPrintJobs(t, query) }));
  addRoute(server, ctx, API_ROUTES.cancelPrintJob, async ({ t, now, params }) => ({ body: printJobView(await cancelPrintJob(t, now, params.id)) }));
}
