import { z } from 'zod';

/*
 * The one error shape of the API (docs/api-reference.md, Errors):
 *   {"error": "<short title>", "error_code": "<UPPER_SNAKE>", "details": {"message": "<sentence>", ...}}
 */

/** Every error code with its HTTP status, title and default message. */
export const ERROR_CODES = {
  MALFORMED_JSON: { status: 400, title: 'Bad Request', message: 'The request body is not valid JSON.' },
  INVALID_QUERY: { status: 400, title: 'Bad Request', message: 'A query parameter is invalid.' },
  INVALID_TOKEN: { status: 401, title: 'Unauthorized', message: 'The access token is invalid or expired.' },
  ACCOUNT_FORBIDDEN: {
    status: 403,
    title: 'Forbidden',
    message: 'The access token is not valid for this account.',
  },
  SUPERVISOR_REQUIRED: {
    status: 403,
    title: 'Forbidden',
    message: 'Only a supervisor may do this: sign in with a supervisor badge and PIN (POST /api/v1/station/supervisor-sessions).',
  },
  SIGN_IN_REFUSED: { status: 403, title: 'Forbidden', message: 'That badge and PIN do not sign in a supervisor.' },
  JOIN_CODE_REFUSED: {
    status: 403,
    title: 'Forbidden',
    message: 'The join code is unknown, used, expired or burned: ask the hub for a new one (returns-station site invite).',
  },
  PAIRING_CODE_REFUSED: {
    status: 403,
    title: 'Forbidden',
    message: 'The pairing code is unknown, used or expired: ask a supervisor for a new one (Settings, Handhelds; returns-station handheld pair).',
  },
  JOIN_PROOF_WRONG: {
    status: 403,
    title: 'Forbidden',
    message:
      'The join proof does not match this hub: the code is wrong, or a machine between the station and the hub served its own certificate. A few wrong proofs burn the code.',
  },
  SITE_MEMBER_REMOVED: {
    status: 401,
    title: 'Unauthorized',
    message: 'This station was removed from the site by its hub: its token no longer works. Its unsent changes stay on it.',
  },
  NOT_A_HUB: {
    status: 409,
    title: 'Conflict',
    message: 'This station cannot take members: it serves no TLS (start it with serve --host on the site network) or has no accounts.',
  },
  SITE_MANAGED: {
    status: 409,
    title: 'Conflict',
    message: "This station belongs to a site: its workers, disposition rules and rule-like settings are the site's hub's. Change them at the hub.",
  },
  NOT_SITE_MEMBER: {
    status: 403,
    title: 'Forbidden',
    message: "Only a member station of this hub's site may read the site's configuration and the authorities its members trust.",
  },
  TAKE_OVER_REFUSED: {
    status: 409,
    title: 'Conflict',
    message:
      "This station cannot take over as the site's hub now (it joined no hub, its hub did not name it, or its hub cannot be reached): nothing was taken.",
  },
  NOT_FOUND: { status: 404, title: 'Not Found', message: 'The requested resource does not exist.' },
  INVALID_STATUS_TRANSITION: {
    status: 409,
    title: 'Conflict',
    message: 'The return package cannot move to this status.',
  },
  DUPLICATE_TRACKING_NUMBER: {
    status: 409,
    title: 'Conflict',
    message: 'Another return package of this account already uses this tracking number.',
  },
  REVIEW_NOT_HELD: {
    status: 409,
    title: 'Conflict',
    message: 'The return package is not held for review: it was never held, or a supervisor decided already.',
  },
  WRONG_BIN: {
    status: 409,
    title: 'Conflict',
    message: 'This is not the bin the unit goes to.',
  },
  DISPOSITION_MISSING: {
    status: 409,
    title: 'Conflict',
    message: 'Every unit needs a disposition first.',
  },
  SERIAL_MISSING: {
    status: 409,
    title: 'Conflict',
    message: 'A unit whose SKU needs its serial has none yet.',
  },
  UNIT_LABELLED_OR_PUT: {
    status: 409,
    title: 'Conflict',
    message: "This unit's label was made or its put confirmed: its quantity cannot change and it cannot be removed.",
  },
  SUPERVISOR_EXISTS: {
    status: 409,
    title: 'Conflict',
    message: 'The station has a supervisor already: a supervisor adds workers.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 409,
    title: 'Conflict',
    message: 'This Idempotency-Key was already used with a different request.',
  },
  MISDIRECTED_REQUEST: {
    status: 421,
    title: 'Misdirected Request',
    message: 'This station answers only requests addressed to its loopback address.',
  },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Payload Too Large', message: 'The request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    title: 'Unsupported Media Type',
    message: 'The request body has an unsupported content type.',
  },
  VALIDATION_FAILED: {
    status: 422,
    title: 'Unprocessable Entity',
    message: 'The request body is invalid.',
  },
  RATE_LIMITED: { status: 429, title: 'Too Many Requests', message: 'Too many requests; retry later.' },
  SIGN_IN_LOCKED: { status: 429, title: 'Too Many Requests', message: 'Too many wrong PINs for this badge; it is locked for a while.' },
  INTERNAL_ERROR: { status: 500, title: 'Internal Server Error', message: 'An unexpected error occurred.' },
  UNAVAILABLE: {
    status: 503,
    title: 'Service Unavailable',
    message: 'The station is not ready; retry shortly.',
  },
} as const satisfies Record<string, { status: number; title: string; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];
export const ErrorCodeSchema = z.enum(ERROR_CODE_NAMES);

/** One invalid field, named with the request's own names (`return_line_items[2].quantity`). */
export const FieldErrorSchema = z.object({ path: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldErrorSchema>;

/** `details`: always a `message`; some codes add more (see ERROR_CODES and docs/api-reference.md, Errors). */
export const ErrorDetailsSchema = z
  .object({
    message: z.string(),
    fields: z.array(FieldErrorSchema).optional(),
    from: z.string().optional(),
    to: z.string().optional(),
    allowed: z.array(z.string()).optional(),
    existing_id: z.int().optional(),
    limit_bytes: z.int().optional(),
    retry_after_seconds: z.int().optional(),
    request_id: z.string().optional(),
    /** Why a 503 `UNAVAILABLE` (see UNAVAILABLE_REASONS); absent for a short, passing unavailability. */
    reason: z.string().optional(),
    /** `DISPOSITION_MISSING`: the items without a disposition; `SERIAL_MISSING`: the items without their serial. */
    line_item_ids: z.array(z.int()).optional(),
    /** `WRONG_BIN` (the bin the unit goes to) and `DISPOSITION_MISSING` on a put (null: no bin yet). */
    expected_bin: z.string().nullable().optional(),
    /** `UNIT_LABELLED_OR_PUT`: the unit whose label or put holds it. */
    unit_id: z.string().optional(),
  })
  .catchall(z.unknown());
export type ErrorDetails = z.infer<typeof ErrorDetailsSchema>;

export const ErrorBodySchema = z.object({
  error: z.string(),
  error_code: ErrorCodeSchema,
  details: ErrorDetailsSchema,
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Extra details per code, typed where the API reference names them. */
export interface ErrorExtras {
  fields?: FieldError[];
  from?: string;
  to?: string;
  allowed?: string[];
  existing_id?: number;
  limit_bytes?: number;
  retry_after_seconds?: number;
  request_id?: string;
  reason?: UnavailableReason;
  budget_bytes?: number;
  line_item_ids?: number[];
  expected_bin?: string | null;
  unit_id?: string;
  /** SITE_MANAGED: the site's hub that owns what the request would change. */
  hub_url?: string;
}

/**
 * Why the station answers 503 `UNAVAILABLE` for longer than a moment: the disk holding its data is
 * full, or its media budget is used up. Both need the operator, not a retry.
 */
export const UNAVAILABLE_REASONS = ['disk_full', 'media_budget_reached'] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

export function errorStatus(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}

/** Builds the error body of `code`; `message` defaults to the code's standard sentence. */
export function errorBody(code: ErrorCode, message?: string, extras: ErrorExtras = {}): ErrorBody {
  const entry = ERROR_CODES[code];
  return {
    error: entry.title,
    error_code: code,
    details: { message: message ?? entry.message, ...extras },
  };
}

// ---------------------------------------------------------------------------------------------
// ZodError → fields

/** Formats a path the way a client writes it: `return_line_items[2].quantity`; the root is ``. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else {
      const name = String(key);
      out += /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? (out === '' ? name : `.${name}`) : `[${JSON.stringify(name)}]`;
    }
  }
  return out;
}

/** The minimal part of a zod issue used here (so callers may pass `ZodError.issues` of any schema). */
export interface IssueLike {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  keys?: readonly string[];
}

/**
 * Error map for request parsing: a missing value reads "Required." whatever its type (zod's default
 * would say e.g. `Invalid option: expected one of "g"|"kg"`).
 */
export function requestErrorMap(issue: { input?: unknown; code?: string }): string | undefined {
  return issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value') ? 'Required.' : undefined;
}

/** `schema.safeParse(input)` with the request error map: use it for bodies, queries and params. */
export function parseRequest<S extends z.ZodType>(schema: S, input: unknown): z.ZodSafeParseResult<z.output<S>> {
  return schema.safeParse(input, { error: requestErrorMap });
}

/**
 * Turns zod issues into `fields: [{path, message}]`: an unknown key becomes one entry per key at
 * the key's own path ("Unknown field."); other fields keep the message of their first issue.
 * Order follows the issues.
 */
export function fieldErrorsFromIssues(issues: readonly IssueLike[]): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  const push = (path: readonly PropertyKey[], message: string) => {
    const entry = { path: formatFieldPath(path), message };
    const key = `${entry.path}\u0000${entry.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(entry);
    }
  };
  const seenPaths = new Set<string>();
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      for (const key of issue.keys) push([...issue.path, key], 'Unknown field.');
      continue;
    }
    // One message per field: the first problem found.
    const path = formatFieldPath(issue.path);
    if (seenPaths.has(path)) continue;
    seenPaths.add(path);
    if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) {
      push(issue.path, 'Required.');
    } else {
      push(issue.path, issue.message);
    }
  }
  return out;
}

/** 422 VALIDATION_FAILED body for a rejected request body. */
export function validationFailedBody(error: { issues: readonly IssueLike[] }): ErrorBody {
  const fields = fieldErrorsFromIssues(error.issues);
  const first = fields[0];
  const message =
    first === undefined
      ? ERROR_CODES.VALIDATION_FAILED.message
      : `${first.path === '' ? 'The request body' : first.path}: ${first.message}${fields.length > 1 ? ` (and ${fields.length - 1} more)` : ''}`;
  return errorBody('VALIDATION_FAILED', message, { fields });
}

/** 400 INVALID_QUERY body for rejected query parameters. */
export function invalidQueryBody(error: { issues: readonly IssueLike[] }): ErrorBody {
  const fields = fieldErrorsFromIssues(error.issues);
  const first = fields[0];
  const message = first === undefined ? ERROR_CODES.INVALID_QUERY.message : `Query parameter ${first.path}: ${first.message}`;
  return errorBody('INVALID_QUERY', message, { fields });
}
