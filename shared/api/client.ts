import type { TokenCreated, TokenCreateInput, TokenListResponseSchema } from './tokens.ts';
import type { BadgeCheck, BadgeCheckAnswer, FirstSupervisorInput, SupervisorSession, SupervisorSignIn } from './supervisor.ts';
import type { z } from 'zod';
import type { Health } from '../health.ts';
import type { DockDay, DockDayQuery } from './dock-day.ts';
import type { PaginationQuery } from './common.ts';
import { ApiError, StationUnreachableError, SupervisorSessionEndedError } from './api-error.ts';
import { ErrorBodySchema } from './errors.ts';
import { parseStationEvent, type StationEvent } from './events.ts';
import type { DispositionRules, DispositionRulesUpdateInput } from './disposition-rules.ts';
import type { PackageLineItem, PackageLineItemCreateInput, PackageLineItemUpdate, PutConfirmation } from './line-items.ts';
import type { MediaFile } from './media.ts';
import type { PrintJob, PrintJobListResponse, PrintJobState, UnitLabelRequest } from './printing.ts';
import type {
  ReturnPackage,
  SiteReceipt,
  ReturnPackageCreateInput,
  ReturnPackageCreated,
  ReturnPackageListQuery,
  ReturnPackageListResponse,
  ReturnPackageUpdateInput,
  ReturnPackageUpdated,
  StationPackageListQuery,
  StationPackageListResponse,
} from './return-packages.ts';
import type { ManualReturnCreateInput, ReturnListQuery, ReturnListResponse, ReturnRecord } from './returns.ts';
import { API_ROUTES, buildPath, type RouteDefinition } from './routes.ts';
import type { PromoteMemberInput, SiteInvite, SiteJoinInput, SiteUplink, SiteView, TakeOverInput, UplinkOffer } from './site.ts';
import type { HandheldPaired, HandheldPairing, HandheldPairingCreate, HandheldPairRequest } from './handhelds.ts';
import type { SiteConfig } from './site-config.ts';
import { type RetryPolicy, type StationBack, waitToRetry, worthRetrying } from './retry-policy.ts';
import { createSseParser } from './sse.ts';
import type { PackageWeighed, PackageWeighInput, PackageWeight, ScaleReading, ScaleSettings, ScaleSettingInput, SerialPortList } from './scale.ts';
import type { PackageReviewAnswer, ReviewConfirmInput, ReviewedPackage, ReviewList, ReviewListQuery, ReviewReleaseInput } from './reviews.ts';
import type { StationSettings, StationSettingsUpdateInput } from './station-settings.ts';
import type {
  RecordSync,
  SyncChange,
  SyncChangeListResponseSchema,
  SyncChangeRef,
  SyncOverview,
  UpstreamSettingsInputSchema,
  UpstreamViewSchema,
} from './sync.ts';
import type {
  CarrierListResponseSchema,
  LocationListResponseSchema,
  LookupResponse,
  Operator,
  OperatorCreateInput,
  OperatorListResponseSchema,
  OperatorUpdate,
  StationStatus,
} from './station.ts';

/*
 * A small typed client of the station API over fetch, for the renderer and tests. Responses are
 * parsed with the shared zod schemas; a non-2xx answer throws ApiError; a failed connection
 * throws StationUnreachableError.
 */

// The errors a call throws live in their own module (the retry policy reads them too); callers import them from here.
export { ApiError, StationUnreachableError, SupervisorSessionEndedError };

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface ApiClientOptions {
  /** Origin of the station, e.g. `http://127.0.0.1:4780` (a trailing slash is ignored). */
  baseUrl: string;
  token: string | null;
  fetch?: FetchLike;
  /** Told when the supervisor session's token was refused (SupervisorSessionEndedError), before the call throws. */
  onSupervisorSessionEnded?: () => void;
}

export interface RequestOptions {
  signal?: AbortSignal;
}
export interface PostOptions extends RequestOptions {
  /** Sent as `Idempotency-Key`: a retried POST with the same key returns the first answer. */
  idempotencyKey?: string;
}

type QueryValue = string | number | boolean | readonly string[] | null | undefined;
export type QueryParams = Record<string, QueryValue>;

/*
 * A list's query as the client sends it: the route table's own query schema (what the station
 * validates), every parameter optional. One definition, so a new filter reaches the client at once.
 */
export type PageQuery = Partial<PaginationQuery>;
export type ReturnListParams = Partial<ReturnListQuery>;
export type ReturnPackageListParams = Partial<ReturnPackageListQuery>;
export type StationPackageListParams = Partial<StationPackageListQuery>;

/** Turns query values into a query string: lists comma-joined, null/undefined/empty lists dropped. */
export function toQueryString(query: QueryParams | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'object') {
      if (value.length > 0) params.set(key, value.join(','));
    } else params.set(key, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

interface CallOptions {
  params?: Record<string, string | number>;
  query?: QueryParams | undefined;
  json?: unknown;
  raw?: { body: Blob; contentType: string };
  idempotencyKey?: string | undefined;
  signal?: AbortSignal | undefined;
  /** The Accept header (default JSON). */
  accept?: string;
  /** Another token for this call. */
  token?: string | null;
}

export class ApiClient {
  readonly baseUrl: string;
  readonly token: string | null;
  readonly #fetch: FetchLike;
  readonly #onSupervisorSessionEnded: () => void;
  /** A supervisor session's token, sent instead of `token` on the routes only a supervisor may call. */
  #supervisorToken: string | null = null;

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#onSupervisorSessionEnded = options.onSupervisorSessionEnded ?? (() => undefined);
  }

  /** Headers of every request: bearer token and Accept. */
  headers(extra: Record<string, string> = {}, token: string | null = this.token): Record<string, string> {
    const headers: Record<string, string> = { Accept: 'application/json', ...extra };
    if (token !== null) headers.Authorization = `Bearer ${token}`;
    return headers;
  }

  /**
   * Sends a supervisor session's token (null: none) on the routes only a supervisor may call
   * (`auth: 'supervisor'` in the route table); every other call keeps the client's own token.
   */
  useSupervisorToken(token: string | null): void {
    this.#supervisorToken = token;
  }

  async #send(route: RouteDefinition, options: CallOptions): Promise<Response> {
    const url = this.baseUrl + buildPath(route.path, options.params ?? {}) + toQueryString(options.query);
    const extra: Record<string, string> = {};
    let body: string | Blob | undefined;
    if (options.json !== undefined) {
      extra['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.raw) {
      extra['Content-Type'] = options.raw.contentType;
      body = options.raw.body;
    }
    if (options.idempotencyKey !== undefined) extra['Idempotency-Key'] = options.idempotencyKey;
    if (options.accept !== undefined) extra.Accept = options.accept;
    const token =
      options.token !== undefined ? options.token : route.auth === 'supervisor' && this.#supervisorToken !== null ? this.#supervisorToken : this.token;
    const init: RequestInit = { method: route.method, headers: this.headers(extra, token) };
    if (body !== undefined) init.body = body;
    if (options.signal) init.signal = options.signal;
    let response: Response;
    try {
      response = await this.#fetch(url, init);
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      throw new StationUnreachableError(`The station at ${this.baseUrl} cannot be reached.`, { cause });
    }
    if (!response.ok) {
      const error = await apiErrorFrom(response);
      if (response.status === 401 && token !== null && token === this.#supervisorToken && token !== this.token) {
        this.#supervisorToken = null;
        this.#onSupervisorSessionEnded();
        throw new SupervisorSessionEndedError(error);
      }
      throw error;
    }
    return response;
  }

  async #call<S extends z.ZodType>(route: RouteDefinition & { response: S }, options: CallOptions = {}): Promise<z.infer<S>> {
    const response = await this.#send(route, options);
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      throw unexpected(response.status, 'The station answered with a body that is not JSON.');
    }
    const parsed = route.response.safeParse(json);
    if (!parsed.success) throw unexpected(response.status, 'The station answered with an unexpected shape.');
    return parsed.data;
  }

  // -- station ---------------------------------------------------------------------------------

  health(o: RequestOptions = {}): Promise<Health> {
    return this.#call(API_ROUTES.getHealth, { signal: o.signal });
  }
  station(o: RequestOptions = {}): Promise<StationStatus> {
    return this.#call(API_ROUTES.getStation, { signal: o.signal });
  }
  dockDay(query: DockDayQuery = {}, o: RequestOptions = {}): Promise<DockDay> {
    return this.#call(API_ROUTES.getDockDay, { query: { ...query }, signal: o.signal });
  }
  /** The day's receipts as CSV text (one row per received line item). */
  async dockDayReceiptsCsv(query: { date?: string } = {}, o: RequestOptions = {}): Promise<string> {
    const response = await this.#send(API_ROUTES.exportDockDayReceipts, { query: { ...query }, signal: o.signal });
    return response.text();
  }
  stationSettings(o: RequestOptions = {}): Promise<StationSettings> {
    return this.#call(API_ROUTES.getStationSettings, { signal: o.signal });
  }
  updateStationSettings(body: StationSettingsUpdateInput, o: RequestOptions = {}): Promise<StationSettings> {
    return this.#call(API_ROUTES.updateStationSettings, { json: body, signal: o.signal });
  }
  /** The station's scale (station token). */
  scale(o: RequestOptions = {}): Promise<ScaleSettings> {
    return this.#call(API_ROUTES.getScale, { signal: o.signal });
  }
  /** Chooses the station's scale (supervisor). */
  chooseScale(scale: ScaleSettingInput, o: RequestOptions = {}): Promise<ScaleSettings> {
    return this.#call(API_ROUTES.chooseScale, { json: { scale }, signal: o.signal });
  }
  serialPorts(o: RequestOptions = {}): Promise<SerialPortList> {
    return this.#call(API_ROUTES.listSerialPorts, { signal: o.signal });
  }
  /** Reads the station's serial or network scale now. */
  readScale(o: RequestOptions = {}): Promise<ScaleReading> {
    return this.#call(API_ROUTES.readScale, { signal: o.signal });
  }
  /** The parcel's measured weight (404 until weighed). */
  packageWeight(accountId: number, packageId: number, o: RequestOptions = {}): Promise<PackageWeight> {
    return this.#call(API_ROUTES.getPackageWeight, { params: { account_id: accountId, id: packageId }, signal: o.signal });
  }
  /** Weighs the parcel on the station's scale, or records what the terminal's scale read or a person typed. */
  weighPackage(accountId: number, packageId: number, body: PackageWeighInput, o: PostOptions = {}): Promise<PackageWeighed> {
    return this.#call(API_ROUTES.weighPackage, {
      params: { account_id: accountId, id: packageId },
      json: body,
      idempotencyKey: o.idempotencyKey,
      signal: o.signal,
    });
  }
  /** The review list: packages held for review (default), or those released or confirmed. */
  reviews(query: ReviewListQuery = {}, o: RequestOptions = {}): Promise<ReviewList> {
    return this.#call(API_ROUTES.listReviews, { query: { ...query }, signal: o.signal });
  }
  /** A package's review (`review` null when never held). */
  packageReview(accountId: number, packageId: number, o: RequestOptions = {}): Promise<PackageReviewAnswer> {
    return this.#call(API_ROUTES.getPackageReview, { params: { account_id: accountId, id: packageId }, signal: o.signal });
  }
  /** Releases a held package (a supervisor's session token goes with it). */
  releaseReview(accountId: number, packageId: number, body: ReviewReleaseInput = {}, o: PostOptions = {}): Promise<ReviewedPackage> {
    return this.#call(API_ROUTES.releaseReview, {
      params: { account_id: accountId, id: packageId },
      json: body,
      idempotencyKey: o.idempotencyKey,
      signal: o.signal,
    });
  }
  /** Confirms a held package's finding with a reason (a supervisor's session token goes with it). */
  confirmReview(accountId: number, packageId: number, body: ReviewConfirmInput, o: PostOptions = {}): Promise<ReviewedPackage> {
    return this.#call(API_ROUTES.confirmReview, {
      params: { account_id: accountId, id: packageId },
      json: body,
      idempotencyKey: o.idempotencyKey,
      signal: o.signal,
    });
  }
  dispositionRules(o: RequestOptions = {}): Promise<DispositionRules> {
    return this.#call(API_ROUTES.getDispositionRules, { signal: o.signal });
  }
  updateDispositionRules(body: DispositionRulesUpdateInput, o: RequestOptions = {}): Promise<DispositionRules> {
    return this.#call(API_ROUTES.updateDispositionRules, { json: body, signal: o.signal });
  }
  lookup(code: string, o: RequestOptions = {}): Promise<LookupResponse> {
    return this.#call(API_ROUTES.lookupCode, { query: { code }, signal: o.signal });
  }
  listOperators(query: PageQuery = {}, o: RequestOptions = {}): Promise<z.infer<typeof OperatorListResponseSchema>> {
    return this.#call(API_ROUTES.listOperators, { query: { ...query }, signal: o.signal });
  }
  /** Every operator, page after page (a station has a handful; the pages bound each answer). */
  async listAllOperators(o: RequestOptions = {}): Promise<Operator[]> {
    const all: Operator[] = [];
    for (let page = 1; ; page++) {
      const answer = await this.listOperators({ page, per_page: 250 }, o);
      all.push(...answer.data);
      if (page >= answer.meta.total_pages) return all;
    }
  }
  createOperator(body: OperatorCreateInput, o: PostOptions = {}): Promise<Operator> {
    return this.#call(API_ROUTES.createOperator, { json: body, idempotencyKey: o.idempotencyKey, signal: o.signal });
  }
  updateOperator(id: number, body: OperatorUpdate, o: RequestOptions = {}): Promise<Operator> {
    return this.#call(API_ROUTES.updateOperator, { params: { id }, json: body, signal: o.signal });
  }

  // -- supervisor sessions ---------------------------------------------------------------------

  /** Whether a scanned badge this terminal does not know needs a PIN (a supervisor's). */
  checkBadge(body: BadgeCheck, o: RequestOptions = {}): Promise<BadgeCheckAnswer> {
    return this.#call(API_ROUTES.checkBadge, { json: body, signal: o.signal });
  }
  /** A supervisor's badge and PIN: a session whose token may change settings (a new client on it: `withToken`). */
  createSupervisorSession(body: SupervisorSignIn, o: PostOptions = {}): Promise<SupervisorSession> {
    return this.#call(API_ROUTES.createSupervisorSession, { json: body, idempotencyKey: o.idempotencyKey, signal: o.signal });
  }
  /** Ends the supervisor session this client uses (`useSupervisorToken`), or the one of its own token. */
  async endSupervisorSession(o: RequestOptions = {}): Promise<void> {
    await this.#send(API_ROUTES.endSupervisorSession, { signal: o.signal, token: this.#supervisorToken ?? this.token });
  }
  /** The station's first supervisor (only while it has none) and a session of theirs. */
  createFirstSupervisor(body: FirstSupervisorInput, o: PostOptions = {}): Promise<SupervisorSession> {
    return this.#call(API_ROUTES.createFirstSupervisor, { json: body, idempotencyKey: o.idempotencyKey, signal: o.signal });
  }
  /** The same station, called with another token (a supervisor session's). */
  withToken(token: string | null): ApiClient {
    return new ApiClient({ baseUrl: this.baseUrl, token, fetch: this.#fetch });
  }

  // -- tokens (station token) ------------------------------------------------------------------

  listTokens(o: RequestOptions = {}): Promise<z.infer<typeof TokenListResponseSchema>> {
    return this.#call(API_ROUTES.listTokens, { signal: o.signal });
  }
  createToken(body: TokenCreateInput, o: PostOptions = {}): Promise<TokenCreated> {
    return this.#call(API_ROUTES.createToken, { json: body, idempotencyKey: o.idempotencyKey, signal: o.signal });
  }
  async revokeToken(id: number, o: RequestOptions = {}): Promise<void> {
    await this.#send(API_ROUTES.revokeToken, { params: { id }, signal: o.signal });
  }

  // -- returns ---------------------------------------------------------------------------------

  createReturn(body: ManualReturnCreateInput, o: PostOptions = {}): Promise<ReturnRecord> {
    return this.#call(API_ROUTES.createReturn, { json: body, idempotencyKey: o.idempotencyKey, signal: o.signal });
  }
  /** `GET /returns` (the token's account; station tokens may pass `account_id`). */
  listReturns(query: ReturnListParams = {}, o: RequestOptions = {}): Promise<ReturnListResponse> {
    return this.#call(API_ROUTES.listReturns, { query: { ...query }, signal: o.signal });
  }
  /** `GET /api/v1/accounts/{account_id}/returns`. */
  listAccountReturns(accountId: number, query: Omit<ReturnListParams, 'account_id'> = {}, o: RequestOptions = {}): Promise<ReturnListResponse> {
    return this.#call(API_ROUTES.listAccountReturns, {
      params: { account_id: accountId },
      query: { ...query },
      signal: o.signal,
    });
  }

  /** `GET /api/v1/accounts/{account_id}/returns/{id}`. */
  getReturn(accountId: number, id: number, o: RequestOptions = {}): Promise<ReturnRecord> {
    return this.#call(API_ROUTES.getAccountReturn, { params: { account_id: accountId, id }, signal: o.signal });
  }

  // -- return packages -------------------------------------------------------------------------

  listPackages(accountId: number, query: ReturnPackageListParams = {}, o: RequestOptions = {}): Promise<ReturnPackageListResponse> {
    return this.#call(API_ROUTES.listReturnPackages, {
      params: { account_id: accountId },
      query: { ...query },
      signal: o.signal,
    });
  }
  /** Every account's packages (station token), or `account_id`'s; each row names its account. */
  listStationPackages(query: StationPackageListParams = {}, o: RequestOptions = {}): Promise<StationPackageListResponse> {
    return this.#call(API_ROUTES.listStationPackages, { query: { ...query }, signal: o.signal });
  }
  createPackage(accountId: number, body: ReturnPackageCreateInput, o: PostOptions = {}): Promise<ReturnPackageCreated> {
    return this.#call(API_ROUTES.createReturnPackage, {
      params: { account_id: accountId },
      json: body,
      idempotencyKey: o.idempotencyKey,
      signal: o.signal,
    });
  }
  getPackage(accountId: number, id: number, o: RequestOptions = {}): Promise<ReturnPackage> {
    return this.#call(API_ROUTES.getReturnPackage, { params: { account_id: accountId, id }, signal: o.signal });
  }
  /** A site's whole receipt of a package (G with notes, media named by hash): docs/decisions/site-receipt.md. */
  getSiteReceipt(accountId: number, id: number, o: RequestOptions = {}): Promise<SiteReceipt> {
    return this.#call(API_ROUTES.getSiteReceipt, { params: { account_id: accountId, id }, signal: o.signal });
  }
  updatePackage(accountId: number, id: number, body: ReturnPackageUpdateInput, o: RequestOptions = {}): Promise<ReturnPackageUpdated> {
    return this.#call(API_ROUTES.updateReturnPackage, {
      params: { account_id: accountId, id },
      json: body,
      signal: o.signal,
    });
  }

  // -- line items ------------------------------------------------------------------------------

  createLineItem(accountId: number, packageId: number, body: PackageLineItemCreateInput, o: PostOptions = {}): Promise<PackageLineItem> {
    return this.#call(API_ROUTES.createPackageLineItem, {
      params: { account_id: accountId, id: packageId },
      json: body,
      idempotencyKey: o.idempotencyKey,
      signal: o.signal,
    });
  }
  updateLineItem(accountId: number, packageId: number, lineItemId: number, body: PackageLineItemUpdate, o: RequestOptions = {}): Promise<PackageLineItem> {
    return this.#call(API_ROUTES.updatePackageLineItem, {
      params: { account_id: accountId, id: packageId, line_item_id: lineItemId },
      json: body,
      signal: o.signal,
    });
  }
  /** The put of a unit into its bin, by the bin's scanned code (409 `WRONG_BIN` for another bin). */
  confirmPut(accountId: number, packageId: number, lineItemId: number, body: PutConfirmation, o: PostOptions = {}): Promise<PackageLineItem> {
    return this.#call(API_ROUTES.confirmPut, {
      params: { account_id: accountId, id: packageId, line_item_id: lineItemId },
      json: body,
      idempotencyKey: o.idempotencyKey,
      signal: o.signal,
    });
  }
  async deleteLineItem(accountId: number, packageId: number, lineItemId: number, o: RequestOptions = {}): Promise<void> {
    await this.#send(API_ROUTES.deletePackageLineItem, {
      params: { account_id: accountId, id: packageId, line_item_id: lineItemId },
      signal: o.signal,
    });
  }

  // -- media -----------------------------------------------------------------------------------

  /** Uploads a file as a raw body with its content type (`file.type` unless `contentType` is given). */
  uploadMedia(accountId: number, packageId: number, file: Blob, o: PostOptions & { contentType?: string; capturedAt?: string } = {}): Promise<MediaFile> {
    return this.#call(API_ROUTES.uploadMediaFile, {
      params: { account_id: accountId, id: packageId },
      query: o.capturedAt === undefined ? undefined : { captured_at: o.capturedAt },
      raw: { body: file, contentType: o.contentType ?? (file.type || 'application/octet-stream') },
      idempotencyKey: o.idempotencyKey,
      signal: o.signal,
    });
  }
  async deleteMedia(accountId: number, packageId: number, mediaId: number, o: RequestOptions = {}): Promise<void> {
    await this.#send(API_ROUTES.deleteMediaFile, {
      params: { account_id: accountId, id: packageId, media_id: mediaId },
      signal: o.signal,
    });
  }

  // -- labels and printing ---------------------------------------------------------------------

  /** A unit's label as a print job: its job made before (once printed, never again) unless `reprint`. */
  createUnitLabel(accountId: number, packageId: number, lineItemId: number, body: Partial<UnitLabelRequest> = {}, o: PostOptions = {}): Promise<PrintJob> {
    return this.#call(API_ROUTES.createUnitLabel, {
      params: { account_id: accountId, id: packageId, line_item_id: lineItemId },
      json: body,
      idempotencyKey: o.idempotencyKey,
      signal: o.signal,
    });
  }
  /** A file answer (a PDF, a zip) as a blob: the bearer token is needed, so it is fetched, then shown or saved. */
  async #file(route: RouteDefinition, params: Record<string, number>, accept: 'application/pdf' | 'application/zip', o: RequestOptions): Promise<Blob> {
    return (await this.#send(route, { params, accept, signal: o.signal })).blob();
  }
  /** A unit's label as it prints now, as a PDF. */
  unitLabelPdf(accountId: number, packageId: number, lineItemId: number, o: RequestOptions = {}): Promise<Blob> {
    return this.#file(API_ROUTES.getUnitLabelPdf, { account_id: accountId, id: packageId, line_item_id: lineItemId }, 'application/pdf', o);
  }
  /** Every unit's label of a package as a PDF, a page each (the browser's printer, at receipt). */
  packageLabelsPdf(accountId: number, packageId: number, o: RequestOptions = {}): Promise<Blob> {
    return this.#file(API_ROUTES.getPackageLabelsPdf, { account_id: accountId, id: packageId }, 'application/pdf', o);
  }
  /** A package's evidence pack as a PDF (docs/api-reference.md, The evidence pack). */
  evidencePdf(accountId: number, packageId: number, o: RequestOptions = {}): Promise<Blob> {
    return this.#file(API_ROUTES.getEvidencePdf, { account_id: accountId, id: packageId }, 'application/pdf', o);
  }
  /** A package's evidence pack as a zip: its PDF and every photo full size. */
  evidenceZip(accountId: number, packageId: number, o: RequestOptions = {}): Promise<Blob> {
    return this.#file(API_ROUTES.getEvidenceZip, { account_id: accountId, id: packageId }, 'application/zip', o);
  }
  /** The labels of every unit of a package that has none yet (and its slip when the settings ask for one). */
  createPackageLabels(accountId: number, packageId: number, body: { operator_id?: number | null } = {}, o: PostOptions = {}): Promise<{ data: PrintJob[] }> {
    return this.#call(API_ROUTES.createPackageLabels, {
      params: { account_id: accountId, id: packageId },
      json: body,
      idempotencyKey: o.idempotencyKey,
      signal: o.signal,
    });
  }
  /** A test label on the printer of the station settings (station token). */
  createTestPrint(o: PostOptions = {}): Promise<PrintJob> {
    return this.#call(API_ROUTES.createTestPrint, { idempotencyKey: o.idempotencyKey, signal: o.signal });
  }
  /** The test label as a PDF. */
  async testLabelPdf(o: RequestOptions = {}): Promise<Blob> {
    const response = await this.#send(API_ROUTES.getTestLabelPdf, { accept: 'application/pdf', signal: o.signal });
    return response.blob();
  }
  /** The print queue, newest first (station token). */
  listPrintJobs(query: PageQuery & { state?: readonly PrintJobState[] } = {}, o: RequestOptions = {}): Promise<PrintJobListResponse> {
    return this.#call(API_ROUTES.listPrintJobs, { query: { ...query }, signal: o.signal });
  }
  /** Cancels a waiting print job (409 `INVALID_STATUS_TRANSITION` once it is being sent or printed). */
  cancelPrintJob(id: number, o: RequestOptions = {}): Promise<PrintJob> {
    return this.#call(API_ROUTES.cancelPrintJob, { params: { id }, signal: o.signal });
  }

  // -- configuration ---------------------------------------------------------------------------

  listCarriers(accountId: number, query: PageQuery = {}, o: RequestOptions = {}): Promise<z.infer<typeof CarrierListResponseSchema>> {
    return this.#call(API_ROUTES.listCarriers, { params: { account_id: accountId }, query: { ...query }, signal: o.signal });
  }
  listLocations(accountId: number, query: PageQuery = {}, o: RequestOptions = {}): Promise<z.infer<typeof LocationListResponseSchema>> {
    return this.#call(API_ROUTES.listLocations, { params: { account_id: accountId }, query: { ...query }, signal: o.signal });
  }

  // -- sync ------------------------------------------------------------------------------------

  syncOverview(o: RequestOptions = {}): Promise<SyncOverview> {
    return this.#call(API_ROUTES.getSync, { signal: o.signal });
  }
  listSyncChanges(
    query: PageQuery & { state?: readonly SyncChange['state'][] } = {},
    o: RequestOptions = {},
  ): Promise<z.infer<typeof SyncChangeListResponseSchema>> {
    return this.#call(API_ROUTES.listSyncChanges, { query: { ...query }, signal: o.signal });
  }
  retrySyncChange(ref: SyncChangeRef, o: RequestOptions = {}): Promise<SyncChange> {
    return this.#call(API_ROUTES.retrySyncChange, { json: ref, signal: o.signal });
  }
  async keepLocalSyncChange(ref: SyncChangeRef, o: RequestOptions = {}): Promise<void> {
    await this.#send(API_ROUTES.keepLocalSyncChange, { json: ref, signal: o.signal });
  }
  getUpstream(o: RequestOptions = {}): Promise<z.infer<typeof UpstreamViewSchema>> {
    return this.#call(API_ROUTES.getUpstream, { signal: o.signal });
  }
  setUpstream(body: z.input<typeof UpstreamSettingsInputSchema>, o: RequestOptions = {}): Promise<z.infer<typeof UpstreamViewSchema>> {
    return this.#call(API_ROUTES.setUpstream, { json: body, signal: o.signal });
  }
  async removeUpstream(o: RequestOptions = {}): Promise<void> {
    await this.#send(API_ROUTES.removeUpstream, { signal: o.signal });
  }
  // -- a site ----------------------------------------------------------------------------------

  site(o: RequestOptions = {}): Promise<SiteView> {
    return this.#call(API_ROUTES.getSite, { signal: o.signal });
  }
  /** The site's configuration, as a hub answers its members (a member's token only). */
  getSiteConfig(o: RequestOptions = {}): Promise<SiteConfig> {
    return this.#call(API_ROUTES.getSiteConfig, { signal: o.signal });
  }
  createHandheldPairing(body: HandheldPairingCreate = {}, o: RequestOptions = {}): Promise<HandheldPairing> {
    return this.#call(API_ROUTES.createHandheldPairing, { json: body, signal: o.signal });
  }
  pairHandheld(body: HandheldPairRequest, o: RequestOptions = {}): Promise<HandheldPaired> {
    return this.#call(API_ROUTES.pairHandheld, { json: body, signal: o.signal });
  }
  createSiteInvite(o: RequestOptions = {}): Promise<SiteInvite> {
    return this.#call(API_ROUTES.createSiteInvite, { signal: o.signal });
  }
  async removeSiteMember(id: number, o: RequestOptions = {}): Promise<void> {
    await this.#send(API_ROUTES.removeSiteMember, { params: { id }, signal: o.signal });
  }
  promoteSiteMember(body: PromoteMemberInput, o: RequestOptions = {}): Promise<SiteView> {
    return this.#call(API_ROUTES.promoteSiteMember, { json: body, signal: o.signal });
  }
  takeSiteUplink(o: RequestOptions = {}): Promise<SiteUplink> {
    return this.#call(API_ROUTES.takeSiteUplink, { signal: o.signal });
  }
  uplinkOffer(o: RequestOptions = {}): Promise<UplinkOffer> {
    return this.#call(API_ROUTES.getUplinkOffer, { signal: o.signal });
  }
  takeOverAsHub(body: TakeOverInput = {}, o: RequestOptions = {}): Promise<z.infer<typeof UpstreamViewSchema>> {
    return this.#call(API_ROUTES.takeOverAsHub, { json: body, signal: o.signal });
  }
  joinHub(body: SiteJoinInput, o: RequestOptions = {}): Promise<SiteView> {
    return this.#call(API_ROUTES.joinHub, { json: body, signal: o.signal });
  }

  getPackageSync(accountId: number, id: number, o: RequestOptions = {}): Promise<RecordSync> {
    return this.#call(API_ROUTES.getReturnPackageSync, { params: { account_id: accountId, id }, signal: o.signal });
  }
  /** Asks the station to read a package the dock shows from the upstream (answers at once; the values come as events). */
  async refreshPackage(accountId: number, id: number, o: RequestOptions = {}): Promise<void> {
    await this.#send(API_ROUTES.refreshReturnPackage, { params: { account_id: accountId, id }, signal: o.signal });
  }
  getReturnSync(accountId: number, id: number, o: RequestOptions = {}): Promise<RecordSync> {
    return this.#call(API_ROUTES.getReturnSync, { params: { account_id: accountId, id }, signal: o.signal });
  }

  // -- events ----------------------------------------------------------------------------------

  /**
   * Follows `GET .../events` until `signal` aborts, reconnecting after a dropped connection with
   * `Last-Event-ID` (delay: the server's `retry:`, else `reconnectMs`). Events that are not valid
   * station events are skipped. Resolves when aborted.
   *
   * It follows the one retry policy (retry-policy.ts): an unreachable station, a busy one (408, 429,
   * with its Retry-After) or one failing for a while (5xx) is retried with a doubling delay up to
   * `maxReconnectMs`, reset once a stream opens, and at once when `stationBack` says the station
   * answers again. A refusal retrying cannot change (a revoked token, an unknown account, any other
   * 4xx) ends it with that ApiError.
   */
  async subscribeEvents(accountId: number, handlers: EventSubscription): Promise<void> {
    const { signal } = handlers;
    const position: StreamPosition = { lastEventId: handlers.lastEventId ?? '', retryMs: handlers.reconnectMs ?? 2000 };
    const maxDelay = Math.max(position.retryMs, handlers.maxReconnectMs ?? 60_000);
    let failures = 0;
    const url = this.baseUrl + buildPath(API_ROUTES.streamEvents.path, { account_id: accountId });
    while (!signal.aborted) {
      // The server's `retry:` is the first wait (and the only one after a stream that ended cleanly).
      const policy: RetryPolicy = { firstMs: position.retryMs, maxMs: maxDelay, stationBack: handlers.stationBack };
      try {
        await this.#readEventStream(url, position, handlers, () => {
          failures = 0;
          handlers.onOpen?.();
        });
        await waitToRetry({ ...policy, maxMs: position.retryMs }, 0, null, signal);
      } catch (error) {
        if (signal.aborted) return;
        handlers.onError?.(error);
        if (!worthRetrying(error)) throw error;
        await waitToRetry(policy, failures++, error, signal);
      }
    }
  }

  /**
   * One connection of a subscription: opens the stream after `position.lastEventId` and hands each
   * valid station event on until the stream ends (or `signal` aborts), keeping `position` current.
   */
  async #readEventStream(url: string, position: StreamPosition, handlers: EventSubscription, opened: () => void): Promise<void> {
    const { signal } = handlers;
    const headers = this.headers({ Accept: 'text/event-stream' });
    if (position.lastEventId !== '') headers['Last-Event-ID'] = position.lastEventId;
    let response: Response;
    try {
      response = await this.#fetch(url, { method: 'GET', headers, signal });
    } catch (cause) {
      if (signal.aborted) return;
      throw new StationUnreachableError(`The station at ${this.baseUrl} cannot be reached.`, { cause });
    }
    if (!response.ok) throw await apiErrorFrom(response);
    if (!response.body) throw unexpected(response.status, 'The event stream has no body.');
    opened();
    const parser = createSseParser(
      {
        onMessage: (message) => {
          const event = parseStationEvent(message);
          if (event) handlers.onEvent(event);
        },
        onRetry: (ms) => {
          position.retryMs = ms;
        },
      },
      position.lastEventId,
    );
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.push(value);
        position.lastEventId = parser.lastEventId;
      }
    } catch (cause) {
      if (signal.aborted) return;
      throw new StationUnreachableError('The event stream was interrupted.', { cause });
    }
    position.lastEventId = parser.lastEventId;
  }
}

/** Where a subscription stands between connections: the last event seen and the server's retry delay. */
interface StreamPosition {
  lastEventId: string;
  retryMs: number;
}

export interface EventSubscription {
  onEvent(event: StationEvent): void;
  onOpen?(): void;
  /** Connection problems (the subscription retries) and the final ApiError. */
  onError?(error: unknown): void;
  signal: AbortSignal;
  lastEventId?: string;
  /** Delay before reconnecting after a stream ended (the server's `retry:` overrides it). */
  reconnectMs?: number;
  /** Longest delay between attempts while the station fails or cannot be reached (default 60 s). */
  maxReconnectMs?: number;
  /** Reconnects at once when the station answers again (the page's link tells it). */
  stationBack?: StationBack;
}

function unexpected(status: number, message: string): ApiError {
  return new ApiError(status, 'UNEXPECTED_RESPONSE', { message });
}

/** Builds the ApiError of a non-2xx response from its error body (or a generic one). */
export async function apiErrorFrom(response: Response): Promise<ApiError> {
  let json: unknown = null;
  try {
    json = await response.json();
  } catch {
    // not JSON: fall through
  }
  const parsed = ErrorBodySchema.safeParse(json);
  if (parsed.success) return new ApiError(response.status, parsed.data.error_code, parsed.data.details);
  return unexpected(response.status, `The station answered ${response.status} without an error body.`);
}
