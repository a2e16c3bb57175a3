import { describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  ErrorBodySchema,
  errorBody,
  errorStatus,
  fieldErrorsFromIssues,
  formatFieldPath,
  invalidQueryBody,
  parseRequest,
  ReturnPackageListQuerySchema,
} from '../../shared/api/index.ts';

describe('error bodies', () => {
  it('the 401 body is exactly the contract one', () => {
    expect(errorBody('INVALID_TOKEN')).toEqual({
      error: 'Unauthorized',
      error_code: 'INVALID_TOKEN',
      details: { message: 'The access token is invalid or expired.' },
    });
    expect(errorStatus('INVALID_TOKEN')).toBe(401);
  });

  it.each(Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[])('%s builds a valid body', (code) => {
    const body = errorBody(code, undefined, { request_id: 'r1' });
    expect(ErrorBodySchema.parse(body)).toEqual(body);
    expect(body.error_code).toBe(code);
    expect(code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
    expect(body.details.message.length).toBeGreaterThan(0);
  });

  // The contract's codes, plus MISDIRECTED_REQUEST (421) for the DNS-rebinding Host check, which the
  // contract requires but gives no code for (docs/api-decisions.md).
  it('carries the contract statuses', () => {
    const statuses = Object.fromEntries(Object.entries(ERROR_CODES).map(([code, e]) => [code, e.status]));
    expect(statuses).toEqual({
      MALFORMED_JSON: 400,
      INVALID_QUERY: 400,
      INVALID_TOKEN: 401,
      ACCOUNT_FORBIDDEN: 403,
      NOT_FOUND: 404,
      INVALID_STATUS_TRANSITION: 409,
      DUPLICATE_TRACKING_NUMBER: 409,
      WRONG_BIN: 409,
      DISPOSITION_MISSING: 409,
      // A unit that needs its serial has none (docs/decisions/serials.md).
      SERIAL_MISSING: 409,
      // A line item held by its label or put (docs/decisions/units.md).
      UNIT_LABELLED_OR_PUT: 409,
      // A review decided on a package not held (docs/operator-guide.md, The review).
      REVIEW_NOT_HELD: 409,
      IDEMPOTENCY_KEY_REUSED: 409,
      MISDIRECTED_REQUEST: 421,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      VALIDATION_FAILED: 422,
      RATE_LIMITED: 429,
      // The station's supervisor (docs/decisions/supervisor.md): a change only a supervisor may make,
      // a sign-in refused or locked out, a first supervisor when there is one.
      SUPERVISOR_REQUIRED: 403,
      SIGN_IN_REFUSED: 403,
      SIGN_IN_LOCKED: 429,
      SUPERVISOR_EXISTS: 409,
      // A site (docs/decisions/site-join.md): a join code refused, a join's proof wrong, a removed
      // member's token, a station that cannot take members.
      JOIN_CODE_REFUSED: 403,
      JOIN_PROOF_WRONG: 403,
      SITE_MEMBER_REMOVED: 401,
      SITE_MANAGED: 409,
      TAKE_OVER_REFUSED: 409,
      NOT_SITE_MEMBER: 403,
      NOT_A_HUB: 409,
      // A handheld's pairing code refused (docs/decisions/handheld-pairing.md).
      PAIRING_CODE_REFUSED: 403,
      INTERNAL_ERROR: 500,
      UNAVAILABLE: 503,
    });
  });

  it('keeps extras and a custom message', () => {
    const body = errorBody('INVALID_STATUS_TRANSITION', 'Cannot move from received to pending.', {
      from: 'received',
      to: 'pending',
      allowed: [],
    });
    expect(body.details).toEqual({ message: 'Cannot move from received to pending.', from: 'received', to: 'pending', allowed: [] });
  });

  it('rejects bodies of another shape', () => {
    expect(ErrorBodySchema.safeParse({ error: 'x', error_code: 'NOPE', details: { message: 'm' } }).success).toBe(false);
    expect(ErrorBodySchema.safeParse({ error: 'x', error_code: 'NOT_FOUND', details: {} }).success).toBe(false);
  });
});

describe('field paths', () => {
  it.each([
    [['return_line_items', 2, 'quantity'], 'return_line_items[2].quantity'],
    [['email'], 'email'],
    [[], ''],
    [['tags', 0], 'tags[0]'],
    [[0, 'a'], '[0].a'],
    [['weird key', 'x'], '["weird key"].x'],
  ] as const)('%j → %s', (path, expected) => {
    expect(formatFieldPath(path)).toBe(expected);
  });

  it('splits unknown keys into one entry each', () => {
    expect(fieldErrorsFromIssues([{ code: 'unrecognized_keys', keys: ['a', 'b'], path: ['x', 1], message: 'Unrecognized keys' }])).toEqual([
      { path: 'x[1].a', message: 'Unknown field.' },
      { path: 'x[1].b', message: 'Unknown field.' },
    ]);
  });

  it('query errors are 400 INVALID_QUERY with fields', () => {
    const result = parseRequest(ReturnPackageListQuerySchema, { per_page: '999', colour: 'red' });
    expect(result.success).toBe(false);
    const body = invalidQueryBody(result.error ?? { issues: [] });
    expect(body.error_code).toBe('INVALID_QUERY');
    expect(errorStatus(body.error_code)).toBe(400);
    expect(body.details.fields?.map((f) => f.path).sort()).toEqual(['colour', 'per_page']);
  });
});
