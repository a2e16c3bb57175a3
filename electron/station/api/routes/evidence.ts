import type { FastifyInstance } from 'fastify';
import { API_ROUTES } from '#shared/api/routes.ts';
import type { DomainContext } from '../../domain/context.ts';
import { evidenceOf } from '../../domain/evidence.ts';
import { evidencePdfStream, evidenceZipStream, openEvidence } from '../../evidence/pack.ts';
import { addRoute } from '../route.ts';

/** A tracking number as a file name carries it: letters, digits, `-` and `_`; anything else `_`. */
const fileSafe = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60);

/**
 * A package's evidence pack (docs/api-reference.md, The evidence pack): its PDF, and a zip of the
 * PDF with every photo full size. Both stream; the files are opened before the first byte goes.
 */
export function evidenceRoutes(server: FastifyInstance, ctx: DomainContext): void {
  const opened = async (accountId: number, id: number, now: string) => {
    const facts = await evidenceOf(ctx, accountId, id, now);
    return { name: `evidence-${fileSafe(facts.package.tracking_number)}`, pack: await openEvidence(facts, ctx.store.media) };
  };
  addRoute(server, ctx, API_ROUTES.getEvidencePdf, async ({ params, now }) => {
    const { name, pack } = await opened(params.account_id, params.id, now);
    return { body: evidencePdfStream(pack), headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${name}.pdf"` } };
  });
  addRoute(server, ctx, API_ROUTES.getEvidenceZip, async ({ params, now }) => {
    const { name, pack } = await opened(params.account_id, params.id, now);
    return {
      body: evidenceZipStream(pack, `${name}.pdf`),
      headers: { 'content-type': 'application/zip', 'content-disposition': `attachment; filename="${name}.zip"` },
    };
  });
}
