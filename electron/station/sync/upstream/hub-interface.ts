import type { UpstreamAnswer } from './answers.ts';
import type { UpstreamClient, UpstreamRequest } from './upstream-client.ts';

/*
 * A site's hub of an older version (docs/decisions/site-versions.md). A member sends its hub the
 * site additions (`site_unit` on line items, `processed_at` and `processor_name` on a package's
 * PATCH) and reads each changed package's `site_receipt`. A hub from before them refuses the fields
 * as unknown (422: its bodies are strict) and has no such route (404 "No route for …"). Neither is
 * the package's fault: the member then speaks the spec alone to that hub — the same request again
 * without the additions, and spec bodies and no receipts from then on — and asks again after an hour,
 * at a restart or when its settings change. What went up in the spec's shapes keeps the hub's own
 * decision for a unit until the unit changes again.
 */

/** Field names a member adds for its hub: an older hub answers each as "Unknown field.". */
const SITE_ADDITIONS: ReadonlySet<string> = new Set(['site_unit', 'processed_at', 'processor_name']);
/** After a refusal the hub is taken for an older one this long, then asked again. */
export const ASK_AGAIN_MS = 60 * 60_000;

/** What sync knows of one hub's interface, kept across rounds by the engine (per upstream settings). */
export interface HubInterface {
  /** Until this instant (ms) the hub is taken for one without the site additions; 0: it has them. */
  specOnlyUntil: number;
  /** Says once per refusal that the hub is older (the station's log). */
  say(message: string): void;
}

export function newHubInterface(say: (message: string) => void): HubInterface {
  return { specOnlyUntil: 0, say };
}

/** Whether this round speaks the station's richer interface to its upstream: a joined hub that did not refuse it. */
export function usesSiteInterface(sc: { client: Pick<UpstreamClient, 'settings'>; hub?: HubInterface | undefined }, now: number = Date.now()): boolean {
  return sc.client.settings.site !== undefined && (sc.hub?.specOnlyUntil ?? 0) <= now;
}

function fieldErrorsOf(answer: UpstreamAnswer): Array<{ path: string; message: string }> {
  const fields = (answer.body as { details?: { fields?: unknown } } | null)?.details?.fields;
  return Array.isArray(fields) ? fields.map((f: { path?: unknown; message?: unknown }) => ({ path: String(f.path), message: String(f.message) })) : [];
}

/** An older hub's refusal of a body for its site additions alone: a 422 whose every field error is one of them, unknown. */
export function refusesSiteAdditions(answer: UpstreamAnswer): boolean {
  if (answer.status !== 422) return false;
  const fields = fieldErrorsOf(answer);
  return fields.length > 0 && fields.every((f) => f.message === 'Unknown field.' && SITE_ADDITIONS.has(f.path));
}

/** An older hub's answer to a route it does not have (as against a record it does not have). */
export function hasNoSuchRoute(answer: UpstreamAnswer): boolean {
  const message = (answer.body as { details?: { message?: unknown } } | null)?.details?.message;
  return answer.status === 404 && typeof message === 'string' && message.startsWith('No route for ');
}

function withoutSiteAdditions(json: unknown): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return json;
  return Object.fromEntries(Object.entries(json).filter(([key]) => !SITE_ADDITIONS.has(key)));
}

function carriesSiteAdditions(json: unknown): boolean {
  return typeof json === 'object' && json !== null && Object.keys(json).some((key) => SITE_ADDITIONS.has(key));
}

/**
 * The client a member's round sends with: a body its hub refused for the site additions alone is
 * sent again without them (the hub is then spec-only until `specOnlyUntil`), so the change goes up
 * and nothing is parked for a person.
 */
export function specFallbackClient(client: UpstreamClient, hub: HubInterface): UpstreamClient {
  if (client.settings.site === undefined) return client;
  const send = async (request: UpstreamRequest): Promise<UpstreamAnswer | null> => {
    const answer = await client.send(request);
    if (!answer || !carriesSiteAdditions(request.json) || !refusesSiteAdditions(answer)) return answer;
    markSpecOnly(
      hub,
      `it refused ${fieldErrorsOf(answer)
        .map((f) => f.path)
        .join(', ')} as unknown`,
    );
    return client.send({ ...request, json: withoutSiteAdditions(request.json) });
  };
  return {
    settings: client.settings,
    budget: client.budget,
    get requests() {
      return client.requests;
    },
    returnsUrl: client.returnsUrl,
    accountReturnsUrl: client.accountReturnsUrl,
    packagesUrl: client.packagesUrl,
    mediaHash: client.mediaHash,
    send,
  };
}

/** Takes the hub for an older one (spec shapes, no receipts) for ASK_AGAIN_MS. */
export function markSpecOnly(hub: HubInterface, why: string, now: number = Date.now()): void {
  if (hub.specOnlyUntil <= now) hub.say(`sync: the site's hub is of an older version (${why}): spec shapes only, asked again in an hour`);
  hub.specOnlyUntil = now + ASK_AGAIN_MS;
}
