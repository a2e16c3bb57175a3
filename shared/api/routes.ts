import { z } from 'zod';
import { HealthSchema } from '../health.ts';
import {
  HandheldPairingCreateSchema,
  HandheldPairRequestSchema,
  HandheldPairedSchema,
  HandheldPairingSchema,
  PAIRING_CODE_MINUTES,
  PAIRING_WRONG_CODES_PER_MINUTE,
} from './handhelds.ts';
import { IdParamSchema, PaginationQuerySchema } from './common.ts';
import { DockDayQuerySchema, DockDayReceiptsQuerySchema, DockDaySchema } from './dock-day.ts';
import type { ErrorCode } from './errors.ts';
import { EVIDENCE_MAX_ONE_PHOTO_BYTES, EVIDENCE_MAX_PHOTO_BYTES, EVIDENCE_MAX_PHOTOS } from './evidence.ts';
import { MediaFileSchema, MediaUploadQuerySchema } from './media.ts';
import { DispositionRulesSchema, DispositionRulesUpdateSchema } from './disposition-rules.ts';
import { PackageLineItemCreateSchema, PackageLineItemSchema, PackageLineItemUpdateSchema, PutConfirmationSchema } from './line-items.ts';
import {
  ReturnPackageCreateSchema,
  ReturnPackageCreatedSchema,
  ReturnPackageListQuerySchema,
  ReturnPackageListResponseSchema,
  ReturnPackageSchema,
  SiteReceiptSchema,
  ReturnPackageUpdateSchema,
  ReturnPackageUpdatedSchema,
  StationPackageListQuerySchema,
  StationPackageListResponseSchema,
} from './return-packages.ts';
import { AccountReturnListQuerySchema, ManualReturnCreateSchema, ReturnListQuerySchema, ReturnListResponseSchema, ReturnRecordSchema } from './returns.ts';
import {
  CarrierListResponseSchema,
  LocationListResponseSchema,
  LookupQuerySchema,
  LookupResponseSchema,
  OperatorCreateSchema,
  OperatorListResponseSchema,
  OperatorSchema,
  OperatorUpdateSchema,
  StationStatusSchema,
} from './station.ts';
import { StationSettingsSchema, StationSettingsUpdateSchema } from './station-settings.ts';
import {
  PackageLabelsRequestSchema,
  PrintJobListQuerySchema,
  PrintJobListResponseSchema,
  PrintJobSchema,
  PrintJobsCreatedSchema,
  UnitLabelRequestSchema,
} from './printing.ts';
import {
  JOIN_CODE_MINUTES,
  JOIN_CODE_WRONG_PROOFS,
  PromoteMemberInputSchema,
  SiteAuthoritiesSchema,
  SiteInviteSchema,
  SiteUplinkSchema,
  SiteJoinAnswerSchema,
  SiteJoinInputSchema,
  SiteJoinRequestSchema,
  SiteViewSchema,
  TakeOverInputSchema,
  UplinkOfferSchema,
} from './site.ts';
import {
  PackageWeighedSchema,
  PackageWeighSchema,
  PackageWeightSchema,
  ScaleReadingSchema,
  ScaleSettingsSchema,
  ScaleSettingsUpdateSchema,
  SerialPortListSchema,
} from './scale.ts';
import {
  PackageReviewAnswerSchema,
  ReviewConfirmSchema,
  ReviewedPackageSchema,
  ReviewListQuerySchema,
  ReviewListSchema,
  ReviewReleaseSchema,
} from './reviews.ts';
import { SiteConfigSchema } from './site-config.ts';
import { SUPERVISOR_TOKEN_MAX_DAYS, TokenCreatedSchema, TokenCreateSchema, TokenListResponseSchema } from './tokens.ts';
import {
  BadgeCheckAnswerSchema,
  BadgeCheckSchema,
  FirstSupervisorSchema,
  SIGN_IN_TRIES_PER_MINUTE,
  SupervisorSessionSchema,
  SupervisorSignInSchema,
} from './supervisor.ts';

import {
  RecordSyncSchema,
  SyncChangeListQuerySchema,
  SyncChangeListResponseSchema,
  SyncChangeRefSchema,
  SyncChangeSchema,
  SyncOverviewSchema,
  UpstreamSettingsInputSchema,
  UpstreamViewSchema,
} from './sync.ts';

/*
 * Every HTTP route of the station API as data: used by the server (validation), the client
 * (paths and response parsing) and the OpenAPI document. Paths use OpenAPI `{name}` templates.
 */

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * Who may call a route: `none` (no token), `account` (an account token for the path's account,
 * or a station token), `station` (station token only), `supervisor` (a supervisor session or an
 * administrative station token, e.g. one made by `returns-station token create`), `any` (any valid token).
 */
export type RouteAuth = 'none' | 'account' | 'station' | 'supervisor' | 'any';

export interface RouteDefinition {
  operationId: string;
  method: HttpMethod;
  path: string;
  summary: string;
  tag: string;
  auth: RouteAuth;
  params?: z.ZodObject;
  query?: z.ZodType;
  /** JSON body schema, or `media` for a raw/multipart media upload. */
  body?: z.ZodType | 'media';
  /** Success status. */
  status: 200 | 201 | 204;
  /** A second success status the route answers, and when (documented beside the first: a handler answers no other). */
  alsoSucceeds?: { status: 200 | 201; when: string };
  /** Success body: a schema, `null` for no body (204), `sse` for an event stream, `csv` for a CSV file, `pdf` for a PDF document, `zip` for a zip archive. */
  response: z.ZodType | null | 'sse' | 'csv' | 'pdf' | 'zip';
  /**
   * `false` on a POST whose answer holds a secret (a session's token): it refuses Idempotency-Key
   * (422), because a replay would store that answer and hand the secret out again.
   */
  replayable?: false;
  /** Error codes the route may answer besides the ones every route may answer. */
  errors: readonly ErrorCode[];
  /**
   * What the schemas cannot say (the operation's OpenAPI description): rules across fields that JSON
   * Schema cannot express, and rules that depend on other records or on the token.
   */
  description?: string;
}

export const AccountPathSchema = z.strictObject({ account_id: IdParamSchema });
export const ReturnPathSchema = z.strictObject({ account_id: IdParamSchema, id: IdParamSchema });
export const PackagePathSchema = z.strictObject({ account_id: IdParamSchema, id: IdParamSchema });
export const LineItemPathSchema = z.strictObject({
  account_id: IdParamSchema,
  id: IdParamSchema,
  line_item_id: IdParamSchema,
});
export const MediaFilePathSchema = z.strictObject({
  account_id: IdParamSchema,
  id: IdParamSchema,
  media_id: IdParamSchema,
});
export const OperatorPathSchema = z.strictObject({ id: IdParamSchema });
export const PrintJobPathSchema = z.strictObject({ id: IdParamSchema });

const ACCOUNT = '/api/v1/accounts/{account_id}';
const MIB = 1024 * 1024;
const PACKAGE = `${ACCOUNT}/return_packages/{id}`;

const READ: readonly ErrorCode[] = ['INVALID_QUERY'];
const WRITE: readonly ErrorCode[] = ['MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'VALIDATION_FAILED'];
/** Every POST: an `Idempotency-Key` that is not 1–255 visible ASCII characters is a 422, a key reused with another body a 409. */
const CREATE: readonly ErrorCode[] = [...WRITE, 'IDEMPOTENCY_KEY_REUSED'];

/** Error codes any authenticated route may answer. */
export const COMMON_ERROR_CODES: readonly ErrorCode[] = ['INVALID_TOKEN', 'RATE_LIMITED', 'INTERNAL_ERROR', 'UNAVAILABLE'];

export const API_ROUTES = {
  getHealth: {
    operationId: 'getHealth',
    method: 'GET',
    path: '/healthz',
    summary: 'Liveness and identity of the station (no token).',
    tag: 'station',
    auth: 'none',
    status: 200,
    response: HealthSchema,
    errors: [],
  },
  getOpenApi: {
    operationId: 'getOpenApi',
    method: 'GET',
    path: '/openapi.json',
    summary: 'This OpenAPI 3.1 document (no token).',
    tag: 'station',
    auth: 'none',
    status: 200,
    response: z.record(z.string(), z.unknown()),
    errors: [],
  },
  createReturn: {
    operationId: 'createReturn',
    method: 'POST',
    path: '/returns',
    summary: "Create a manual return for the token's account (station tokens give `account_id`).",
    description:
      'A station token must give `account_id`, an account the station has (422 on `account_id` otherwise); an account token may leave it out or give its own (403 for another). ' +
      "A line's `unreceived_quantity` is at most its `quantity` (422 on that field).",
    tag: 'returns',
    auth: 'any',
    body: ManualReturnCreateSchema,
    status: 200,
    response: ReturnRecordSchema,
    errors: [...CREATE, 'ACCOUNT_FORBIDDEN'],
  },
  listReturns: {
    operationId: 'listReturns',
    method: 'GET',
    path: '/returns',
    summary: "List the token's account's returns, newest first (station tokens may filter `account_id`).",
    tag: 'returns',
    auth: 'any',
    query: ReturnListQuerySchema,
    status: 200,
    response: ReturnListResponseSchema,
    errors: [...READ, 'ACCOUNT_FORBIDDEN'],
  },
  listAccountReturns: {
    operationId: 'listAccountReturns',
    method: 'GET',
    path: `${ACCOUNT}/returns`,
    summary: "List an account's returns, newest first.",
    tag: 'returns',
    auth: 'account',
    params: AccountPathSchema,
    query: AccountReturnListQuerySchema,
    status: 200,
    response: ReturnListResponseSchema,
    errors: [...READ, 'ACCOUNT_FORBIDDEN'],
  },
  getAccountReturn: {
    operationId: 'getAccountReturn',
    method: 'GET',
    path: `${ACCOUNT}/returns/{id}`,
    summary: 'Get one manual return with its lines and received quantities.',
    tag: 'returns',
    auth: 'account',
    params: ReturnPathSchema,
    status: 200,
    response: ReturnRecordSchema,
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  listReturnPackages: {
    operationId: 'listReturnPackages',
    method: 'GET',
    path: `${ACCOUNT}/return_packages`,
    summary: 'List return packages with filters, sorting and pagination (L fields).',
    tag: 'return packages',
    auth: 'account',
    params: AccountPathSchema,
    query: ReturnPackageListQuerySchema,
    status: 200,
    response: ReturnPackageListResponseSchema,
    errors: [...READ, 'ACCOUNT_FORBIDDEN'],
  },
  listStationPackages: {
    operationId: 'listStationPackages',
    method: 'GET',
    path: '/api/v1/station/return_packages',
    summary: "Every account's return packages (or `account_id`'s), with the account's list filters, sorts and pages; each row names its account.",
    tag: 'return packages',
    auth: 'station',
    query: StationPackageListQuerySchema,
    status: 200,
    response: StationPackageListResponseSchema,
    errors: [...READ, 'ACCOUNT_FORBIDDEN'],
  },
  createReturnPackage: {
    operationId: 'createReturnPackage',
    method: 'POST',
    path: `${ACCOUNT}/return_packages`,
    summary: 'Create a return package (C fields; Location header).',
    description:
      '`return_id` must be a return of this account, `carrier_id` and `location_id` a carrier and a location of the station (422 on the field otherwise). ' +
      'A tracking number used by another non-cancelled package of the account is a 409 `DUPLICATE_TRACKING_NUMBER`.',
    tag: 'return packages',
    auth: 'account',
    params: AccountPathSchema,
    body: ReturnPackageCreateSchema,
    status: 201,
    response: ReturnPackageCreatedSchema,
    errors: [...CREATE, 'ACCOUNT_FORBIDDEN', 'NOT_FOUND', 'DUPLICATE_TRACKING_NUMBER'],
  },
  getReturnPackage: {
    operationId: 'getReturnPackage',
    method: 'GET',
    path: PACKAGE,
    summary: 'Get one return package with its line items and media files (G fields).',
    tag: 'return packages',
    auth: 'account',
    params: PackagePathSchema,
    status: 200,
    response: ReturnPackageSchema,
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  getSiteReceipt: {
    operationId: 'getSiteReceipt',
    method: 'GET',
    path: `${PACKAGE}/site_receipt`,
    summary: "The whole receipt of a package for a site's stations: G with the dock's notes, and each media file's sha256, type and size.",
    description:
      "Read by the stations that joined this station as their site's hub (docs/decisions/site-receipt.md), and by the station's own package screen (who received it, by name); the spec's answers (L, C, G, U) stay as they are.",
    tag: 'return packages',
    auth: 'account',
    params: PackagePathSchema,
    status: 200,
    response: SiteReceiptSchema,
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  updateReturnPackage: {
    operationId: 'updateReturnPackage',
    method: 'PATCH',
    path: PACKAGE,
    summary: 'Update a return package; status moves follow the status machine (U fields).',
    description:
      'A status move the status machine does not allow is a 409 `INVALID_STATUS_TRANSITION` (a PATCH to the current status is allowed). ' +
      '`carrier_id`, `location_id` and `processor_id` must name a carrier, a location and an operator of the station (422 on the field). ' +
      'A tracking number used by another non-cancelled package of the account is a 409. A measure or cost may change without its unit or currency (the pairing is checked on create only). ' +
      'Receiving (a move to `received`) needs a disposition on every line item — in an `exception` package every one, elsewhere every inspected one, i.e. with a condition or marked defective (items not inspected follow the station setting `unset_conditions`) — else a 409 `DISPOSITION_MISSING` whose `details.line_item_ids` lists them; nothing changes. ' +
      'A unit whose SKU the serial rules name needs its serial (unless the receipt comes from another station of the site, with `processed_at`), else a 409 `SERIAL_MISSING` listing them; nothing changes.',
    tag: 'return packages',
    auth: 'account',
    params: PackagePathSchema,
    body: ReturnPackageUpdateSchema,
    status: 200,
    response: ReturnPackageUpdatedSchema,
    errors: [...WRITE, 'ACCOUNT_FORBIDDEN', 'NOT_FOUND', 'INVALID_STATUS_TRANSITION', 'DUPLICATE_TRACKING_NUMBER', 'DISPOSITION_MISSING', 'SERIAL_MISSING'],
  },
  createPackageLineItem: {
    operationId: 'createPackageLineItem',
    method: 'POST',
    path: `${PACKAGE}/line_items`,
    summary: 'Record an inspected item on a package.',
    description:
      "`return_line_item_id` must be a line of the package's return (422 on the field); `name` and `merchant_sku` default to that line's. " +
      'The station applies its disposition rules at once (first match wins) and answers the item with `disposition`, `bin`, `unit_id` and their `disposition:`, `bin:`, `unit:` tags (tags of those prefixes given in the body are replaced). ' +
      "The item may carry at most 20 tags with the station's (422 on `tags`). " +
      'One item is one unit at the dock (several items may share a return line); an item of `quantity` N is kept as one line with one unit id. ' +
      '`condition_by` (an operator of the station, 422 on the field; only with a condition) is answered with `condition_at`.',
    tag: 'line items',
    auth: 'account',
    params: PackagePathSchema,
    body: PackageLineItemCreateSchema,
    status: 201,
    response: PackageLineItemSchema,
    errors: [...CREATE, 'ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  updatePackageLineItem: {
    operationId: 'updatePackageLineItem',
    method: 'PATCH',
    path: `${PACKAGE}/line_items/{line_item_id}`,
    summary: 'Change an inspected item; override its disposition.',
    description:
      "`return_line_item_id` must be a line of the package's return (422 on the field). " +
      'A change of `condition`, `defective`, `merchant_sku` or `return_line_item_id` applies the disposition rules again unless the disposition was overridden. ' +
      '`disposition` (not null) with `disposition_reason` overrides the rules (source `override`, recorded with `disposition_by`, an operator of the station (422 on the field), the reason and the time); `bin` defaults to the bin of the first rule with that disposition. `disposition: null` goes back to the rules. ' +
      "A new bin clears `put_confirmed_at` and `put_by`. Tags with the prefixes `disposition:`, `bin:`, `unit:` are the station's: replaced, never taken from the body. " +
      'A change of `condition` records `condition_by` (an operator of the station, 422 on the field; only with a condition) and `condition_at`; the same condition again keeps them; an unset condition clears them. ' +
      'The change is to this one item (one unit); other items of the same return line are untouched. ' +
      "A change of `quantity` is a 409 `UNIT_LABELLED_OR_PUT` (`details.unit_id`; nothing changes) once the item's put is confirmed or its unit has a label job that was not cancelled: that one label and put stand for the item's units.",
    tag: 'line items',
    auth: 'account',
    params: LineItemPathSchema,
    body: PackageLineItemUpdateSchema,
    status: 200,
    response: PackageLineItemSchema,
    errors: [...WRITE, 'ACCOUNT_FORBIDDEN', 'NOT_FOUND', 'UNIT_LABELLED_OR_PUT'],
  },
  confirmPut: {
    operationId: 'confirmPut',
    method: 'POST',
    path: `${PACKAGE}/line_items/{line_item_id}/put`,
    summary: "Confirm the unit was put into its bin (the bin's scanned code; case does not matter).",
    description:
      "A bin other than the item's is a 409 `WRONG_BIN` (`details.expected_bin`) and changes nothing; an item without a bin yet is a 409 `DISPOSITION_MISSING`. " +
      'A confirmed put keeps its first `put_confirmed_at` and `put_by` (an operator of the station, 422 on the field).',
    tag: 'line items',
    auth: 'account',
    params: LineItemPathSchema,
    body: PutConfirmationSchema,
    status: 200,
    response: PackageLineItemSchema,
    errors: [...CREATE, 'ACCOUNT_FORBIDDEN', 'NOT_FOUND', 'WRONG_BIN', 'DISPOSITION_MISSING'],
  },
  deletePackageLineItem: {
    operationId: 'deletePackageLineItem',
    method: 'DELETE',
    path: `${PACKAGE}/line_items/{line_item_id}`,
    summary: 'Remove an inspected item.',
    description:
      "Removes this one item (one unit, or an integrator's line of N as a whole); other items of the same return line stay. " +
      'An item whose put is confirmed or whose unit has a label job that was not cancelled (waiting, sent, printed or handed to the browser) is a 409 `UNIT_LABELLED_OR_PUT` (`details.unit_id`) and stays: cancel a label still waiting first.',
    tag: 'line items',
    auth: 'account',
    params: LineItemPathSchema,
    status: 204,
    response: null,
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_FOUND', 'UNIT_LABELLED_OR_PUT'],
  },
  uploadMediaFile: {
    operationId: 'uploadMediaFile',
    method: 'POST',
    path: `${PACKAGE}/media_files`,
    summary: 'Attach a photo, video or PDF (multipart field `file`, or a raw body of an allowed type).',
    description:
      "A `captured_at` later than 10 minutes after the station's clock, or older than 366 days before it, is a 422 on `captured_at` (nothing is stored).",
    tag: 'media files',
    auth: 'account',
    params: PackagePathSchema,
    query: MediaUploadQuerySchema,
    body: 'media',
    status: 201,
    response: MediaFileSchema,
    // MALFORMED_JSON: a multipart body that is not well-formed multipart; INVALID_QUERY: a captured_at that is not a time.
    errors: [
      'MALFORMED_JSON',
      'INVALID_QUERY',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'VALIDATION_FAILED',
      'IDEMPOTENCY_KEY_REUSED',
      'ACCOUNT_FORBIDDEN',
      'NOT_FOUND',
    ],
  },
  deleteMediaFile: {
    operationId: 'deleteMediaFile',
    method: 'DELETE',
    path: `${PACKAGE}/media_files/{media_id}`,
    summary: 'Remove a media file.',
    tag: 'media files',
    auth: 'account',
    params: MediaFilePathSchema,
    status: 204,
    response: null,
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  listCarriers: {
    operationId: 'listCarriers',
    method: 'GET',
    path: `${ACCOUNT}/carriers`,
    summary: 'Carriers configured on the station.',
    tag: 'configuration',
    auth: 'account',
    params: AccountPathSchema,
    query: PaginationQuerySchema,
    status: 200,
    response: CarrierListResponseSchema,
    errors: [...READ, 'ACCOUNT_FORBIDDEN'],
  },
  listLocations: {
    operationId: 'listLocations',
    method: 'GET',
    path: `${ACCOUNT}/locations`,
    summary: 'Locations configured on the station.',
    tag: 'configuration',
    auth: 'account',
    params: AccountPathSchema,
    query: PaginationQuerySchema,
    status: 200,
    response: LocationListResponseSchema,
    errors: [...READ, 'ACCOUNT_FORBIDDEN'],
  },
  streamEvents: {
    operationId: 'streamEvents',
    method: 'GET',
    path: `${ACCOUNT}/events`,
    summary: 'Live changes as Server-Sent Events; resume with Last-Event-ID.',
    tag: 'events',
    auth: 'account',
    params: AccountPathSchema,
    status: 200,
    response: 'sse',
    errors: ['ACCOUNT_FORBIDDEN'],
  },
  getStation: {
    operationId: 'getStation',
    method: 'GET',
    path: '/api/v1/station',
    summary: "Station status: accounts, today's counts, sync state.",
    tag: 'station',
    auth: 'station',
    status: 200,
    response: StationStatusSchema,
    errors: ['ACCOUNT_FORBIDDEN'],
  },
  getDockDay: {
    operationId: 'getDockDay',
    method: 'GET',
    path: '/api/v1/station/dock-day',
    summary: 'A dock day at a glance: received per hour and per worker, exceptions, lines to review, parcels waiting, sync.',
    tag: 'station',
    auth: 'station',
    query: DockDayQuerySchema,
    status: 200,
    response: DockDaySchema,
    errors: [...READ, 'ACCOUNT_FORBIDDEN'],
  },
  exportDockDayReceipts: {
    operationId: 'exportDockDayReceipts',
    method: 'GET',
    path: '/api/v1/station/dock-day/receipts.csv',
    summary: "A dock day's receipts as CSV: one row per received line item.",
    tag: 'station',
    auth: 'station',
    query: DockDayReceiptsQuerySchema,
    status: 200,
    response: 'csv',
    errors: [...READ, 'ACCOUNT_FORBIDDEN'],
  },
  getStationSettings: {
    operationId: 'getStationSettings',
    method: 'GET',
    path: '/api/v1/station/settings',
    summary: "The station's settings, shared by all its terminals: scanner framing, currency of new manual returns, receiving with conditions not set.",
    tag: 'station',
    auth: 'station',
    status: 200,
    response: StationSettingsSchema,
    errors: ['ACCOUNT_FORBIDDEN'],
  },
  updateStationSettings: {
    operationId: 'updateStationSettings',
    method: 'PATCH',
    path: '/api/v1/station/settings',
    summary: "Change the station's settings (the fields given; null clears the scanner framing or the currency).",
    description:
      "The scanner's `prefix` and `suffix` must be different keys (422 on `scanner.suffix`). A text serial rule's `max_length` is not below its `min_length`, and no SKU pattern is given twice, case aside (422 on `serial_rules[i].max_length`, `serial_rules[i].sku_pattern`).",
    tag: 'station',
    auth: 'supervisor',
    body: StationSettingsUpdateSchema,
    status: 200,
    response: StationSettingsSchema,
    errors: [...WRITE, 'ACCOUNT_FORBIDDEN', 'SUPERVISOR_REQUIRED', 'SITE_MANAGED'],
  },
  getDispositionRules: {
    operationId: 'getDispositionRules',
    method: 'GET',
    path: '/api/v1/station/disposition-rules',
    summary: "The station's dispositions (names, colours) and its ordered disposition rules (first match wins).",
    tag: 'station',
    auth: 'any',
    status: 200,
    response: DispositionRulesSchema,
    errors: [],
  },
  updateDispositionRules: {
    operationId: 'updateDispositionRules',
    method: 'PUT',
    path: '/api/v1/station/disposition-rules',
    summary: "Replace the disposition rules (and the dispositions' names and colours, when given).",
    description:
      'Refused field by field (422, paths like `rules[2].bin`): no rules, an empty condition or status set, an unknown disposition, a bin that is not 1–20 visible ASCII characters, ' +
      'and a rule that can never apply because the rules before it match every item it would (a duplicate included; 422 on `rules[i]`). Items already inspected keep their disposition.',
    tag: 'station',
    auth: 'supervisor',
    body: DispositionRulesUpdateSchema,
    status: 200,
    response: DispositionRulesSchema,
    errors: [...WRITE, 'ACCOUNT_FORBIDDEN', 'SUPERVISOR_REQUIRED', 'SITE_MANAGED'],
  },
  lookupCode: {
    operationId: 'lookupCode',
    method: 'GET',
    path: '/api/v1/station/lookup',
    summary: 'What a scanned code means across every account on the station.',
    tag: 'station',
    auth: 'station',
    query: LookupQuerySchema,
    status: 200,
    response: LookupResponseSchema,
    errors: [...READ, 'ACCOUNT_FORBIDDEN'],
  },
  listOperators: {
    operationId: 'listOperators',
    method: 'GET',
    path: '/api/v1/station/operators',
    summary: 'Dock workers.',
    description:
      "A terminal's token (the station UI's) gets every supervisor's `badge_code` as null: a terminal never holds the badges that open a supervisor session. " +
      'A supervisor session or an administrative token gets them all. A terminal asks about one scanned badge at a time (`checkBadge`).',
    tag: 'station',
    auth: 'station',
    query: PaginationQuerySchema,
    status: 200,
    response: OperatorListResponseSchema,
    errors: [...READ, 'ACCOUNT_FORBIDDEN'],
  },
  createOperator: {
    operationId: 'createOperator',
    method: 'POST',
    path: '/api/v1/station/operators',
    summary: 'Add a dock worker or a supervisor (supervisor only; badge codes are unique as a scan reads them: `sup-1` is `SUP-1`).',
    description: 'A `badge_code` another operator has is a 422 on `badge_code`; a `sign_in_key` another active operator has, a 422 on `sign_in_key`.',
    tag: 'station',
    auth: 'supervisor',
    body: OperatorCreateSchema,
    status: 201,
    response: OperatorSchema,
    errors: [...CREATE, 'ACCOUNT_FORBIDDEN', 'SUPERVISOR_REQUIRED', 'SITE_MANAGED'],
  },
  updateOperator: {
    operationId: 'updateOperator',
    method: 'PATCH',
    path: '/api/v1/station/operators/{id}',
    summary: 'Rename, re-badge, re-key, activate or deactivate a dock worker, make a supervisor, or reset a PIN (supervisor only).',
    description:
      'A `badge_code` another operator has is a 422 on `badge_code`; a `sign_in_key` another active operator has, a 422 on `sign_in_key`. ' +
      'A supervisor needs a badge and a PIN (422 on `pin` or `badge_code`). The last active supervisor cannot be deactivated or made a worker (422). ' +
      "A new PIN, a deactivation or a change of role ends the operator's supervisor sessions.",
    tag: 'station',
    auth: 'supervisor',
    params: OperatorPathSchema,
    body: OperatorUpdateSchema,
    status: 200,
    response: OperatorSchema,
    errors: [...WRITE, 'ACCOUNT_FORBIDDEN', 'NOT_FOUND', 'SUPERVISOR_REQUIRED', 'SITE_MANAGED'],
  },
  checkBadge: {
    operationId: 'checkBadge',
    method: 'POST',
    path: '/api/v1/station/badge-checks',
    summary: "Whether a scanned badge needs a PIN: true for an active supervisor's badge only.",
    description:
      "For a terminal that knows no worker with the code (supervisors' badges are not in its list of operators): `pin_needed` true asks the supervisor's PIN " +
      "(`createSupervisorSession`); false for any other code, a worker's or none. " +
      `One token may ask ${SIGN_IN_TRIES_PER_MINUTE} times a minute, like sign-in tries (429 \`RATE_LIMITED\` after).`,
    tag: 'station',
    auth: 'station',
    body: BadgeCheckSchema,
    replayable: false,
    status: 200,
    response: BadgeCheckAnswerSchema,
    errors: [...WRITE, 'ACCOUNT_FORBIDDEN'],
  },
  createSupervisorSession: {
    operationId: 'createSupervisorSession',
    method: 'POST',
    path: '/api/v1/station/supervisor-sessions',
    summary: "A supervisor's badge and PIN: a supervisor session, whose token may change what only a supervisor may until `expires_at` (15 minutes).",
    description:
      'A badge that is not an active supervisor, or a wrong PIN, is a 403 `SIGN_IN_REFUSED` (the same answer for both). After 5 wrong PINs in a row the badge is locked for 5 minutes: ' +
      '429 `SIGN_IN_LOCKED` with `Retry-After`, even with the right PIN; tries sent at once count before their answers. ' +
      `One token may send ${SIGN_IN_TRIES_PER_MINUTE} tries a minute (429 \`RATE_LIMITED\` after).`,
    tag: 'station',
    auth: 'station',
    body: SupervisorSignInSchema,
    replayable: false,
    status: 201,
    response: SupervisorSessionSchema,
    errors: [...CREATE, 'ACCOUNT_FORBIDDEN', 'SIGN_IN_REFUSED', 'SIGN_IN_LOCKED'],
  },
  endSupervisorSession: {
    operationId: 'endSupervisorSession',
    method: 'DELETE',
    path: '/api/v1/station/supervisor-sessions/current',
    summary: 'End the supervisor session whose token calls (nothing happens for any other token).',
    tag: 'station',
    auth: 'station',
    status: 204,
    response: null,
    errors: ['ACCOUNT_FORBIDDEN'],
  },
  createFirstSupervisor: {
    operationId: 'createFirstSupervisor',
    method: 'POST',
    path: '/api/v1/station/first-supervisor',
    summary: 'A station without an active supervisor takes its first one from any station token: the supervisor and a session of theirs.',
    description:
      'Once the station has an active supervisor this is a 409 `SUPERVISOR_EXISTS`: a supervisor adds the others. A badge another operator has is a 422 on `badge_code`.',
    tag: 'station',
    auth: 'station',
    body: FirstSupervisorSchema,
    replayable: false,
    status: 201,
    response: SupervisorSessionSchema,
    errors: [...CREATE, 'ACCOUNT_FORBIDDEN', 'SUPERVISOR_EXISTS'],
  },
  listTokens: {
    operationId: 'listTokens',
    method: 'GET',
    path: '/api/v1/station/tokens',
    summary: 'Access tokens (never their secrets), revoked and expired ones included.',
    tag: 'station',
    auth: 'supervisor',
    status: 200,
    response: TokenListResponseSchema,
    errors: ['ACCOUNT_FORBIDDEN', 'SUPERVISOR_REQUIRED'],
  },
  createToken: {
    operationId: 'createToken',
    method: 'POST',
    path: '/api/v1/station/tokens',
    summary: 'Make an account or station token; its secret is in this answer only.',
    description:
      `A supervisor session's token lasts ${SUPERVISOR_TOKEN_MAX_DAYS} days at most (absent \`expires_in_days\`: ${SUPERVISOR_TOKEN_MAX_DAYS}; more is a 422 on \`expires_in_days\`) and is that supervisor's: ` +
      'a new PIN, a deactivation or the end of their role revokes it with their sessions. An administrative token (the command line) makes tokens without that bound.',
    tag: 'station',
    auth: 'supervisor',
    body: TokenCreateSchema,
    status: 201,
    response: TokenCreatedSchema,
    errors: [...CREATE, 'ACCOUNT_FORBIDDEN', 'SUPERVISOR_REQUIRED'],
  },
  revokeToken: {
    operationId: 'revokeToken',
    method: 'DELETE',
    path: '/api/v1/station/tokens/{id}',
    summary: 'Revoke a token: it stops working at once.',
    tag: 'station',
    auth: 'supervisor',
    params: OperatorPathSchema,
    status: 204,
    response: null,
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_FOUND', 'SUPERVISOR_REQUIRED'],
  },
  // The scale (docs/api-reference.md, The scale).
  getScale: {
    operationId: 'getScale',
    method: 'GET',
    path: '/api/v1/station/scale',
    summary:
      "The station's scale: typed by hand (`manual`, the default), a serial or network scale the station reads, or a USB HID or keyboard-wedge scale the terminal reads.",
    tag: 'scale',
    auth: 'station',
    status: 200,
    response: ScaleSettingsSchema,
    errors: ['ACCOUNT_FORBIDDEN'],
  },
  chooseScale: {
    operationId: 'chooseScale',
    method: 'PUT',
    path: '/api/v1/station/scale',
    summary: "Choose the station's scale.",
    tag: 'scale',
    auth: 'supervisor',
    body: ScaleSettingsUpdateSchema,
    status: 200,
    response: ScaleSettingsSchema,
    errors: [...WRITE, 'ACCOUNT_FORBIDDEN', 'SUPERVISOR_REQUIRED'],
  },
  listSerialPorts: {
    operationId: 'listSerialPorts',
    method: 'GET',
    path: '/api/v1/station/scale/ports',
    summary: "The serial ports of the station's system (USB-serial adapters included), to choose a serial scale's port from.",
    tag: 'scale',
    auth: 'station',
    status: 200,
    response: SerialPortListSchema,
    errors: ['ACCOUNT_FORBIDDEN'],
  },
  readScale: {
    operationId: 'readScale',
    method: 'GET',
    path: '/api/v1/station/scale/weight',
    summary:
      "Read the station's serial or network scale now: the stable weight, or why there is none (moving, overload, underload, no answer, the cable pulled, not the protocol).",
    description:
      'The station asks again while the scale moves, for a few seconds, and answers `stable` only with a weight the scale calls stable; a scale that is no answer is still a 200, its `state` says why. ' +
      'A scale the station does not read itself (`manual`, `hid`, `wedge`) is a 404.',
    tag: 'scale',
    auth: 'station',
    status: 200,
    response: ScaleReadingSchema,
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  getPackageWeight: {
    operationId: 'getPackageWeight',
    method: 'GET',
    path: `${PACKAGE}/weight`,
    summary: "The parcel's weight as the dock measured it (the station's own record beside the package; never sent upstream).",
    description: 'A package never weighed is a 404.',
    tag: 'scale',
    auth: 'account',
    params: PackagePathSchema,
    status: 200,
    response: PackageWeightSchema,
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  weighPackage: {
    operationId: 'weighPackage',
    method: 'POST',
    path: `${PACKAGE}/weight`,
    summary: "Weigh the parcel: on the station's scale now (`station_scale`), or record what the terminal's scale read (`scale`) or a person typed (`typed`).",
    description:
      'With `station_scale` the station reads its serial or network scale and records the weight only when it is stable; `reading` says what the scale did, `weight` is the weight the package has now (the earlier one, or null, when this read took none). ' +
      'With `station_scale`, a station that reads no scale itself is a 404 (as its scale read is); an `operator_id` that names no operator of the station, a 422 on `operator_id`.',
    tag: 'scale',
    auth: 'account',
    params: PackagePathSchema,
    body: PackageWeighSchema,
    status: 200,
    response: PackageWeighedSchema,
    errors: [...CREATE, 'ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  // The review of packages held by a failed check (docs/api-reference.md, The review).
  listReviews: {
    operationId: 'listReviews',
    method: 'GET',
    path: '/api/v1/station/reviews',
    summary: "The supervisor's review list: packages held for review (or those released or confirmed), each with why (its findings) and when.",
    tag: 'review',
    auth: 'station',
    query: ReviewListQuerySchema,
    status: 200,
    response: ReviewListSchema,
    errors: [...READ, 'ACCOUNT_FORBIDDEN'],
  },
  getPackageReview: {
    operationId: 'getPackageReview',
    method: 'GET',
    path: `${PACKAGE}/review`,
    summary: "A package's review: held (why, since when), released or confirmed (by whom, when, why); `review` is null when it was never held.",
    tag: 'review',
    auth: 'account',
    params: PackagePathSchema,
    status: 200,
    response: PackageReviewAnswerSchema,
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  releaseReview: {
    operationId: 'releaseReview',
    method: 'POST',
    path: `${PACKAGE}/review/release`,
    summary: 'Release a held package (supervisor only): its units go back to the disposition rules, and its `received` goes upstream as usual.',
    description:
      "The supervisor is the session's (an administrative token records none). A package not held for review (never held, or decided already) is a 409 `REVIEW_NOT_HELD` that says by whom and when.",
    tag: 'review',
    auth: 'supervisor',
    params: PackagePathSchema,
    body: ReviewReleaseSchema,
    status: 200,
    response: ReviewedPackageSchema,
    errors: [...CREATE, 'ACCOUNT_FORBIDDEN', 'SUPERVISOR_REQUIRED', 'NOT_FOUND', 'REVIEW_NOT_HELD'],
  },
  confirmReview: {
    operationId: 'confirmReview',
    method: 'POST',
    path: `${PACKAGE}/review/confirm`,
    summary:
      "Confirm a held package's finding with a reason (supervisor only): its units stay in quarantine, and the finding with the reason is added to its notes, which go upstream with its `received`.",
    description:
      "The supervisor is the session's (an administrative token records none). A package not held for review (never held, or decided already) is a 409 `REVIEW_NOT_HELD` that says by whom and when.",
    tag: 'review',
    auth: 'supervisor',
    params: PackagePathSchema,
    body: ReviewConfirmSchema,
    status: 200,
    response: ReviewedPackageSchema,
    errors: [...CREATE, 'ACCOUNT_FORBIDDEN', 'SUPERVISOR_REQUIRED', 'NOT_FOUND', 'REVIEW_NOT_HELD'],
  },
  // Labels and printing (docs/api-reference.md, Labels and printing).
  createUnitLabel: {
    operationId: 'createUnitLabel',
    method: 'POST',
    path: `${PACKAGE}/line_items/{line_item_id}/label`,
    summary:
      "Print a unit's label: a print job for the printer of the station settings. A unit's label is made once: asking again answers its job (200) unless `reprint` is true.",
    description:
      'A line item without a unit id (a `unit:<id>` tag) is a 422 on `line_item_id`; an `operator_id` that names no operator of the station, a 422 on `operator_id`. 201 with a new job, 200 with the job made before.',
    tag: 'printing',
    auth: 'account',
    params: LineItemPathSchema,
    body: UnitLabelRequestSchema,
    status: 201,
    alsoSucceeds: { status: 200, when: "The unit's label was made before (and `reprint` is not true): its job, as it is now." },
    response: PrintJobSchema,
    errors: [...CREATE, 'ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  getUnitLabelPdf: {
    operationId: 'getUnitLabelPdf',
    method: 'GET',
    path: `${PACKAGE}/line_items/{line_item_id}/label.pdf`,
    summary: "A unit's label as it prints now, as a PDF (4 × 2 in): for the browser's printer and the desktop app's system printers.",
    tag: 'printing',
    auth: 'account',
    params: LineItemPathSchema,
    status: 200,
    response: 'pdf',
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_FOUND', 'VALIDATION_FAILED'],
  },
  getPackageLabelsPdf: {
    operationId: 'getPackageLabelsPdf',
    method: 'GET',
    path: `${PACKAGE}/labels.pdf`,
    summary: "Every unit's label of a package as it prints now, one 4 × 2 in page each, in line order: what the browser's printer offers at receipt.",
    description: 'A package with no unit that has a unit id yet is a 422 on `id`.',
    tag: 'printing',
    auth: 'account',
    params: PackagePathSchema,
    status: 200,
    response: 'pdf',
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_FOUND', 'VALIDATION_FAILED'],
  },
  // The evidence pack (docs/api-reference.md, The evidence pack).
  getEvidencePdf: {
    operationId: 'getEvidencePdf',
    method: 'GET',
    path: `${PACKAGE}/evidence.pdf`,
    summary:
      "A package's evidence pack as a PDF: tracking number and return, expected and measured weight, each unit (condition, serial, disposition, bin), the photos with their capture times, and who did what when.",
    description: `Streamed. At most ${EVIDENCE_MAX_PHOTOS} photos are drawn (${EVIDENCE_MAX_PHOTO_BYTES / MIB} MiB of them, each at most ${EVIDENCE_MAX_ONE_PHOTO_BYTES / MIB} MiB; JPEG and PNG); the others, and videos and documents, are named with their file in \`evidence.zip\`.`,
    tag: 'evidence',
    auth: 'account',
    params: PackagePathSchema,
    status: 200,
    response: 'pdf',
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  getEvidenceZip: {
    operationId: 'getEvidenceZip',
    method: 'GET',
    path: `${PACKAGE}/evidence.zip`,
    summary:
      "A package's evidence pack as a zip: `evidence-<tracking number>.pdf` and every photo full size, byte for byte as uploaded, in `photos/` (videos and documents in `files/`), each named by its place in the package and when it was taken.",
    description: "Streamed, stored without compression (photos already are); a file kept at the site's hub is not in it (the PDF says so).",
    tag: 'evidence',
    auth: 'account',
    params: PackagePathSchema,
    status: 200,
    response: 'zip',
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  createPackageLabels: {
    operationId: 'createPackageLabels',
    method: 'POST',
    path: `${PACKAGE}/labels`,
    summary: 'Print the labels of every unit of a package that has none yet, and a package slip when the station settings ask for one.',
    description: 'An `operator_id` that names no operator of the station is a 422 on `operator_id`.',
    tag: 'printing',
    auth: 'account',
    params: PackagePathSchema,
    body: PackageLabelsRequestSchema,
    status: 201,
    response: PrintJobsCreatedSchema,
    errors: [...CREATE, 'ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  createTestPrint: {
    operationId: 'createTestPrint',
    method: 'POST',
    path: '/api/v1/station/printer/test',
    summary: 'Print a test label on the printer of the station settings.',
    tag: 'printing',
    auth: 'station',
    status: 201,
    response: PrintJobSchema,
    errors: ['VALIDATION_FAILED', 'IDEMPOTENCY_KEY_REUSED', 'ACCOUNT_FORBIDDEN'],
  },
  getTestLabelPdf: {
    operationId: 'getTestLabelPdf',
    method: 'GET',
    path: '/api/v1/station/printer/test.pdf',
    summary: 'The test label as a PDF.',
    tag: 'printing',
    auth: 'station',
    status: 200,
    response: 'pdf',
    errors: ['ACCOUNT_FORBIDDEN'],
  },
  listPrintJobs: {
    operationId: 'listPrintJobs',
    method: 'GET',
    path: '/api/v1/station/print-jobs',
    summary: 'The print queue, newest first: waiting jobs (with their tries and last error), jobs being sent, printed, cancelled.',
    tag: 'printing',
    auth: 'station',
    query: PrintJobListQuerySchema,
    status: 200,
    response: PrintJobListResponseSchema,
    errors: [...READ, 'ACCOUNT_FORBIDDEN'],
  },
  cancelPrintJob: {
    operationId: 'cancelPrintJob',
    method: 'DELETE',
    path: '/api/v1/station/print-jobs/{id}',
    summary: 'Cancel a waiting print job (a job being sent or printed cannot be: 409).',
    tag: 'printing',
    auth: 'station',
    params: PrintJobPathSchema,
    status: 200,
    response: PrintJobSchema,
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_FOUND', 'INVALID_STATUS_TRANSITION'],
  },
  getReturnSync: {
    operationId: 'getReturnSync',
    method: 'GET',
    path: `${ACCOUNT}/returns/{id}/sync`,
    summary: 'Where a manual return stands against the upstream: its upstream id and sync state.',
    tag: 'sync',
    auth: 'account',
    params: ReturnPathSchema,
    status: 200,
    response: RecordSyncSchema,
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  getReturnPackageSync: {
    operationId: 'getReturnPackageSync',
    method: 'GET',
    path: `${PACKAGE}/sync`,
    summary: 'Where a return package stands against the upstream: its upstream id and sync state.',
    tag: 'sync',
    auth: 'account',
    params: PackagePathSchema,
    status: 200,
    response: RecordSyncSchema,
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  refreshReturnPackage: {
    operationId: 'refreshReturnPackage',
    method: 'POST',
    path: `${PACKAGE}/sync/refresh`,
    summary:
      'The dock shows this package: read it from the upstream now, within the request budget. Answers at once; the fresh values arrive as a `package.updated` event.',
    tag: 'sync',
    auth: 'account',
    params: PackagePathSchema,
    status: 204,
    response: null,
    // No body; the Idempotency-Key of every POST (422 malformed, 409 reused with a body).
    errors: ['VALIDATION_FAILED', 'IDEMPOTENCY_KEY_REUSED', 'ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  getSync: {
    operationId: 'getSync',
    method: 'GET',
    path: '/api/v1/station/sync',
    summary: 'Sync state, upstream settings (never the token) and the latest values sync replaced or kept.',
    tag: 'sync',
    auth: 'station',
    status: 200,
    response: SyncOverviewSchema,
    errors: ['ACCOUNT_FORBIDDEN'],
  },
  listSyncChanges: {
    operationId: 'listSyncChanges',
    method: 'GET',
    path: '/api/v1/station/sync/changes',
    summary: 'Records with changes the upstream has not taken: waiting, retrying, parked (refused) or gone upstream.',
    tag: 'sync',
    auth: 'station',
    query: SyncChangeListQuerySchema,
    status: 200,
    response: SyncChangeListResponseSchema,
    errors: [...READ, 'ACCOUNT_FORBIDDEN'],
  },
  retrySyncChange: {
    operationId: 'retrySyncChange',
    method: 'POST',
    path: '/api/v1/station/sync/retry',
    summary: "Send a parked, gone or backed-off record's changes again now.",
    tag: 'sync',
    auth: 'station',
    body: SyncChangeRefSchema,
    status: 200,
    response: SyncChangeSchema,
    errors: [...CREATE, 'ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  keepLocalSyncChange: {
    operationId: 'keepLocalSyncChange',
    method: 'POST',
    path: '/api/v1/station/sync/keep-local',
    summary: "Keep the station's version of a record and stop sending its waiting changes.",
    tag: 'sync',
    auth: 'station',
    body: SyncChangeRefSchema,
    status: 204,
    response: null,
    errors: [...CREATE, 'ACCOUNT_FORBIDDEN', 'NOT_FOUND'],
  },
  getUpstream: {
    operationId: 'getUpstream',
    method: 'GET',
    path: '/api/v1/station/upstream',
    summary:
      'The upstream returns service the station syncs with: its `returns_url` and `base_url` (never the token nor user-info); both null when none is set.',
    tag: 'sync',
    auth: 'station',
    status: 200,
    response: UpstreamViewSchema,
    errors: ['ACCOUNT_FORBIDDEN'],
  },
  setUpstream: {
    operationId: 'setUpstream',
    method: 'POST',
    path: '/api/v1/station/upstream',
    summary: 'Set the upstream returns service: `returns_url` and `base_url` (or `url`, a Returns Station), token and accounts (replaces earlier settings).',
    tag: 'sync',
    auth: 'supervisor',
    body: UpstreamSettingsInputSchema,
    status: 200,
    response: UpstreamViewSchema,
    errors: [...CREATE, 'ACCOUNT_FORBIDDEN', 'SUPERVISOR_REQUIRED'],
  },
  removeUpstream: {
    operationId: 'removeUpstream',
    method: 'DELETE',
    path: '/api/v1/station/upstream',
    summary: 'Stop syncing (waiting changes stay queued for a later upstream).',
    tag: 'sync',
    auth: 'supervisor',
    status: 204,
    response: null,
    errors: ['ACCOUNT_FORBIDDEN', 'SUPERVISOR_REQUIRED'],
  },
  // Handhelds (docs/decisions/handheld-pairing.md): a pairing code, and its exchange for a device's own token.
  createHandheldPairing: {
    operationId: 'createHandheldPairing',
    method: 'POST',
    path: '/api/v1/station/handhelds/pairings',
    summary: `Make a pairing code for a handheld: it works once, for ${PAIRING_CODE_MINUTES} minutes; shown in this answer only (the station keeps its hash).`,
    tag: 'handhelds',
    auth: 'supervisor',
    body: HandheldPairingCreateSchema,
    status: 201,
    response: HandheldPairingSchema,
    replayable: false,
    errors: [...CREATE, 'ACCOUNT_FORBIDDEN', 'SUPERVISOR_REQUIRED', 'RATE_LIMITED'],
  },
  pairHandheld: {
    operationId: 'pairHandheld',
    method: 'POST',
    path: '/api/v1/handhelds/pair',
    summary: 'A handheld exchanges a pairing code for a token of its own (no token: the code is the credential).',
    description:
      "The answer's token has the `terminal` role, is named `handheld: {device_name}` (the name the code was made with, else the request's), does not expire and is listed and revoked with the station's tokens. " +
      'A name another paired handheld has, or no name at all, is a 422 `VALIDATION_FAILED` on `device_name`, and the code still works. ' +
      'An unknown, used or expired code is a 403 `PAIRING_CODE_REFUSED`. ' +
      `Past ${PAIRING_WRONG_CODES_PER_MINUTE} wrong codes a minute, from every caller together, every pairing is a 429 \`RATE_LIMITED\` with \`Retry-After\` until the minute ends.`,
    tag: 'handhelds',
    auth: 'none',
    body: HandheldPairRequestSchema,
    status: 200,
    response: HandheldPairedSchema,
    replayable: false,
    errors: [...WRITE, 'PAIRING_CODE_REFUSED', 'RATE_LIMITED'],
  },
  // A site (docs/api-reference.md, A site): a hub's join codes and members, a station's joining.
  joinSite: {
    operationId: 'joinSite',
    method: 'POST',
    path: '/api/v1/site/join',
    summary: "A station joins this hub with a join code's proof (no token: the proof is the credential).",
    description:
      '`proof` is HMAC-SHA256, keyed by the SHA-256 of `returns-station site join\\0` and the normalised code, over `join\\0{ca_sha256}\\0{nonce}`, where ' +
      "`ca_sha256` is the fingerprint of the top certificate the station was served. The hub checks it against its own site authority's fingerprint: a wrong " +
      `proof (a wrong code, or a machine in the middle serving its own certificate) is a 403 \`JOIN_PROOF_WRONG\` and counts against the code; ${JOIN_CODE_WRONG_PROOFS} burn it. ` +
      'An unknown, used, expired or burned code is a 403 `JOIN_CODE_REFUSED`. The answer proves the hub knows the code too: `hub_proof` is the same HMAC over ' +
      '`hub\\0{ca_sha256}\\0{nonce}`. Only a station serving TLS takes members (409 `NOT_A_HUB`).',
    tag: 'site',
    auth: 'none',
    body: SiteJoinRequestSchema,
    status: 200,
    response: SiteJoinAnswerSchema,
    replayable: false,
    errors: [...WRITE, 'JOIN_CODE_REFUSED', 'JOIN_PROOF_WRONG', 'NOT_A_HUB'],
  },
  getSite: {
    operationId: 'getSite',
    method: 'GET',
    path: '/api/v1/station/site',
    summary: "This station's site: the hub it joined (and whether it was removed), what it holds unsent, and the members that joined it.",
    tag: 'site',
    auth: 'station',
    status: 200,
    response: SiteViewSchema,
    errors: ['ACCOUNT_FORBIDDEN'],
  },
  getSiteConfig: {
    operationId: 'getSiteConfig',
    method: 'GET',
    path: '/api/v1/station/site/config',
    summary:
      "The site's configuration a member takes from its hub: the workers (with their PIN hashes), the disposition rules and bins, and the rule-like settings.",
    description:
      "Only a member station's token (the one its join issued) may read it (403 `NOT_SITE_MEMBER` for any other). `version` is also the ETag: " +
      'a request with `If-None-Match` of the version the member has is answered 304 with no body (docs/decisions/site-config.md).',
    tag: 'site',
    auth: 'station',
    status: 200,
    response: SiteConfigSchema,
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_SITE_MEMBER'],
  },
  getSiteAuthorities: {
    operationId: 'getSiteAuthorities',
    method: 'GET',
    path: '/api/v1/station/site/authorities',
    summary: "The certificate authorities a hub's members trust: the one served now and its successor, announced before it takes over.",
    description:
      "Only a member station's token may read it (403 `NOT_SITE_MEMBER` for any other). A member asks at start and every 12 hours over the channel it pinned, " +
      'and trusts `next` beside `current`, so the roll to the successor 30 days before the authority ends needs no new join (docs/decisions/hub-tls.md). ' +
      '409 `NOT_A_HUB` when the station serves no TLS.',
    tag: 'site',
    auth: 'station',
    status: 200,
    response: SiteAuthoritiesSchema,
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_SITE_MEMBER', 'NOT_A_HUB'],
  },
  createSiteInvite: {
    operationId: 'createSiteInvite',
    method: 'POST',
    path: '/api/v1/station/site/invites',
    summary: `Make a join code for a station: it works once, for ${JOIN_CODE_MINUTES} minutes; shown in this answer only (the hub keeps its hash).`,
    tag: 'site',
    auth: 'supervisor',
    status: 201,
    response: SiteInviteSchema,
    replayable: false,
    errors: ['ACCOUNT_FORBIDDEN', 'SUPERVISOR_REQUIRED', 'IDEMPOTENCY_KEY_REUSED', 'VALIDATION_FAILED'],
  },
  removeSiteMember: {
    operationId: 'removeSiteMember',
    method: 'DELETE',
    path: '/api/v1/station/site/members/{id}',
    summary: 'Remove a member from the site: its token is revoked at once; it keeps its unsent changes.',
    tag: 'site',
    auth: 'supervisor',
    params: OperatorPathSchema,
    status: 204,
    response: null,
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_FOUND', 'SUPERVISOR_REQUIRED'],
  },
  joinHub: {
    operationId: 'joinHub',
    method: 'POST',
    path: '/api/v1/station/site/join',
    summary: "Join a hub with its join code: this station pins the hub's site authority and syncs with the hub from now on.",
    description:
      'The station reads the authority the hub serves, proves the code over its fingerprint, and stores nothing unless the hub proves the code back ' +
      '(docs/decisions/site-join.md). Joining again replaces the membership. A refusal by the hub, or a hub that cannot be reached, is a 422 on `code` or `hub_url` with the reason.',
    tag: 'site',
    auth: 'supervisor',
    body: SiteJoinInputSchema,
    status: 200,
    response: SiteViewSchema,
    replayable: false,
    errors: [...WRITE, 'ACCOUNT_FORBIDDEN', 'SUPERVISOR_REQUIRED'],
  },
  promoteSiteMember: {
    operationId: 'promoteSiteMember',
    method: 'POST',
    path: '/api/v1/station/site/promote',
    summary: 'Move the hub to a member: this hub stops syncing with the returns service at once and keeps its uplink for that member to take.',
    description:
      "Run on the old hub by a supervisor. The upstream settings leave this station's sync in the same write (nothing more is sent to the returns service from here); " +
      'the member then takes them with `site promote` on its own command line (`POST /api/v1/station/site/uplink`), after it has pulled everything this hub holds (docs/decisions/site-promote.md). ' +
      'Naming another member before the uplink is taken re-points it; once taken, 404.',
    tag: 'site',
    auth: 'supervisor',
    body: PromoteMemberInputSchema,
    status: 200,
    response: SiteViewSchema,
    replayable: false,
    errors: [...WRITE, 'ACCOUNT_FORBIDDEN', 'SUPERVISOR_REQUIRED', 'NOT_FOUND', 'NOT_A_HUB'],
  },
  takeSiteUplink: {
    operationId: 'takeSiteUplink',
    method: 'POST',
    path: '/api/v1/station/site/uplink',
    summary: "The member the old hub named takes the site's uplink: the returns service's addresses, token and accounts.",
    description:
      "Only the named member's own token (the one its join issued); asked again, the same answer. In the first, every other member's token is revoked: their later work is held on them " +
      "(as a removed member's) until they join the new hub (docs/decisions/site-promote.md). Any other token is a 403 `NOT_SITE_MEMBER`; no handover waiting, a 404.",
    tag: 'site',
    auth: 'station',
    status: 200,
    response: SiteUplinkSchema,
    replayable: false,
    errors: ['ACCOUNT_FORBIDDEN', 'NOT_SITE_MEMBER', 'NOT_FOUND', 'IDEMPOTENCY_KEY_REUSED'],
  },
  getUplinkOffer: {
    operationId: 'getUplinkOffer',
    method: 'GET',
    path: '/api/v1/station/site/uplink-offer',
    summary: "On a member: whether its hub named this station to take the site's uplink (asked of the hub now, over the pinned connection).",
    description:
      '`offered` is true once the hub stepped down for this station (`site promote MEMBER` there, or its Settings → Site); the member then takes over with `POST /api/v1/station/site/take-over`. ' +
      'A station that joined no hub, or whose hub cannot be reached within a few seconds, answers `offered: false` and says why in `message`.',
    tag: 'site',
    auth: 'station',
    status: 200,
    response: UplinkOfferSchema,
    errors: ['ACCOUNT_FORBIDDEN'],
  },
  takeOverAsHub: {
    operationId: 'takeOverAsHub',
    method: 'POST',
    path: '/api/v1/station/site/take-over',
    summary:
      "On a member, running or not: become the site's hub. It takes the uplink its hub offered it, or, with `without_hub`, the returns service given when the hub is lost.",
    description:
      'Offered by the hub: the station first syncs with its hub until it holds nothing unsent and has everything the hub holds (whole receipts, photos kept at the hub), then takes the uplink over the pinned connection; ' +
      "the hub revokes its other members then. In both ways the station's links are made again for the returns service before anything is sent (docs/decisions/site-promote.md). " +
      'No sync round runs while the upstream changes. A station that joined no hub, a hub that did not name it or cannot be reached, or a station not caught up, is a 409 `TAKE_OVER_REFUSED` saying which; nothing was taken. ' +
      'The answer is the new upstream. The other stations join this one afterwards (it takes members when it serves TLS: `serve --host`).',
    tag: 'site',
    auth: 'supervisor',
    body: TakeOverInputSchema,
    status: 200,
    response: UpstreamViewSchema,
    replayable: false,
    errors: [...WRITE, 'ACCOUNT_FORBIDDEN', 'SUPERVISOR_REQUIRED', 'TAKE_OVER_REFUSED'],
  },
} as const satisfies Record<string, RouteDefinition>;

/** Fills an OpenAPI path template (`/a/{id}`) with URL-encoded values. */
export function buildPath(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{([a-z_]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
