import type { OutboxEntry } from '../../store/index.ts';

/*
 * An upstream's answer and how sync reads it: its kind (sent, park, pause, back off), the upstream's
 * own words for an error, and the error a slot keeps. The client, the gate and every round read it.
 */

/** An upstream's answer as sync reads it: the status, the headers (rate limits, Retry-After) and the body. */
export interface UpstreamAnswer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or null when the body was empty or not JSON. */
  body: unknown;
}

/** The upstream's own words for an error answer: the contract's error shape, else the status. */
export function upstreamMessage(answer: UpstreamAnswer): { code: string | null; message: string } {
  const body = answer.body as { error?: unknown; error_code?: unknown; details?: { message?: unknown; fields?: unknown } } | null;
  const code = typeof body?.error_code === 'string' ? body.error_code : null;
  let message = typeof body?.details?.message === 'string' ? body.details.message : typeof body?.error === 'string' ? body.error : `HTTP ${answer.status}`;
  if (Array.isArray(body?.details?.fields)) {
    const fields = (body.details.fields as Array<{ path?: unknown; message?: unknown }>).map((f) => `${String(f.path)}: ${String(f.message)}`);
    if (fields.length > 0) message = `${message} (${fields.join('; ')})`;
  }
  return { code, message };
}

/** How sync treats an upstream answer (docs/decisions/sync.md, "Errors by kind"). */
export type AnswerKind = 'ok' | 'park' | 'conflict' | 'gone' | 'auth' | 'rate' | 'transient';

export function answerKind(status: number): AnswerKind {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'gone';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate';
  if (status === 400 || status === 413 || status === 422 || status === 415) return 'park';
  // 5xx, and anything unforeseen: try again later rather than drop or park.
  return 'transient';
}

/** The account's sync waits for a person: the upstream refused the token (401/403). */
export class SyncPausedError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'SyncPausedError';
    this.status = status;
  }
}

/** How a removed member's pause begins: the site's view (site/) reads it as "removed". */
export const REMOVED_FROM_SITE = 'Removed from the site by its hub';

export function pauseFrom(answer: UpstreamAnswer): SyncPausedError {
  const { code, message } = upstreamMessage(answer);
  if (code === 'SITE_MEMBER_REMOVED') {
    // Its changes are kept (a pause sends nothing and drops nothing) until a person joins it again or sets another upstream.
    return new SyncPausedError(
      answer.status,
      `${REMOVED_FROM_SITE} (${answer.status}: ${message}). Unsent changes stay on this station: join a site again (\`returns-station site join\`) or set another upstream.`,
    );
  }
  const what = answer.status === 401 ? 'The upstream refused the station token' : 'The upstream refused this account for the station token';
  return new SyncPausedError(
    answer.status,
    `${what} (${answer.status}: ${message}). Set a valid token with \`returns-station upstream set\` or the settings screen.`,
  );
}

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 5 * 60_000;

/** Exponential backoff with full jitter: uniformly random in [0, min(cap, base × 2^attempts)]. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempts, 20)));
}

export function errorOf(answer: UpstreamAnswer | null, fallback: string): OutboxEntry['error'] {
  if (!answer) return { status: null, code: null, message: fallback };
  const { code, message } = upstreamMessage(answer);
  return { status: answer.status, code, message };
}
