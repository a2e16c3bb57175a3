/**
 * The records the store keeps, one type per table. Field names are the API's
 * (docs/api-reference.md) so the API maps them directly. Records are plain JSON values:
 * timestamps are ISO 8601 strings in UTC, unknown optional values are `null`, never `undefined`.
 */

import type { PACKAGE_LINE_ITEM_FIELDS } from '#shared/fields/package-line-item.ts';
import type { RETURN_FIELDS, RETURN_LINE_ITEM_FIELDS } from '#shared/fields/return.ts';
import type { RETURN_PACKAGE_FIELDS } from '#shared/fields/return-package.ts';
import type { RecordOf } from '#shared/fields/table.ts';

export type Timestamp = string;

export type { PackageStatus } from '#shared/package-status.ts';
export type { ReturnStatus } from '#shared/fields/return.ts';
export type { Disposition } from '#shared/dispositions.ts';

export interface Account {
  id: number;
  name: string;
  created_at: Timestamp;
}

export type TokenScope = 'account' | 'station';
export type StationTokenRole = 'admin' | 'terminal' | 'supervisor';

export interface Token {
  id: number;
  /** sha256 hex of the secret; the secret itself is never stored. */
  token_hash: string;
  scope: TokenScope;
  /** null for station tokens. */
  account_id: number | null;
  name: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  expires_at: Timestamp | null;
  /** A station token's role (absent on tokens stored before roles: see roleOf in domain/tokens.ts). */
  role?: StationTokenRole;
  /** The supervisor of a supervisor session. */
  operator_id?: number | null;
}

/** A line of a return as kept: its field table's values and the count given at create. */
export interface ReturnLineItem extends RecordOf<typeof RETURN_LINE_ITEM_FIELDS> {
  /** As given on create (what goes up). `unreceived_quantity` is the station's: quantity − received quantity, floored at 0. */
  unreceived_quantity_at_create: number;
}

/** A manual return as kept: the values of its field table (shared/fields/return.ts), its lines embedded. */
export interface ReturnRecord extends Omit<RecordOf<typeof RETURN_FIELDS>, 'return_line_items'> {
  /** Embedded: a return and its lines are always read and written together. */
  return_line_items: ReturnLineItem[];
  /** Lower-cased SKUs of the lines: a multi-entry index, so a scanned SKU finds its returns. */
  sku_keys: string[];
}

/** A return package as kept: the values of its field table (shared/fields/return-package.ts), and what only the store keeps. */
export interface ReturnPackage extends RecordOf<typeof RETURN_PACKAGE_FIELDS> {
  account_id: number;
  /**
   * Normalised tracking number (see trackingKey) while the package is not cancelled, else null:
   * the unique index `[account_id+tracking_key]` skips null, so uniqueness holds among
   * non-cancelled packages only.
   */
  tracking_key: string | null;
  /** Kept by the API as line items come and go (lists show it); absent on records written without it. */
  line_items_count?: number;
}

/** An inspected unit as kept: the values of its field table (shared/fields/package-line-item.ts), and its package. */
export interface PackageLineItem extends RecordOf<typeof PACKAGE_LINE_ITEM_FIELDS> {
  account_id: number;
  return_package_id: number;
}

export type MediaType = 'image' | 'video' | 'document';

export interface MediaFile {
  id: number;
  account_id: number;
  return_package_id: number;
  type: MediaType;
  content_type: string;
  /** Name of the bytes under `<dataDir>/media/` (content-addressed). */
  sha256: string;
  size: number;
  /** Random secret in the capability URL; looked up when the bytes are served. */
  url_token: string;
  created_at: Timestamp;
  /** When it was taken, as its upload said; absent or null: not known (files stored before it was asked). */
  captured_at?: Timestamp | null;
  /**
   * A photo taken at another station of the site: the hub's capability URL of its bytes, which are
   * read from the hub when a screen shows them (not kept here). Absent: the bytes are this station's.
   */
  remote_url?: string;
}

export interface Carrier {
  id: number;
  code: string;
  name: string;
  service: string;
}

export interface Location {
  id: number;
  code: string;
  name: string;
  fulfillment_center_id: number | null;
}

export interface Operator {
  id: number;
  /** Stable id (UUID), the same wherever the worker is known; filled at open for operators stored before it. */
  uid: string;
  name: string;
  /** Unique when set; null operators have no badge. */
  badge_code: string | null;
  active: boolean;
  /** Absent on operators stored before roles: a worker. */
  role?: 'worker' | 'supervisor';
  /** The number key of the sign-in screen, unique among active operators. */
  sign_in_key?: number | null;
  /** The PIN's scrypt hash (auth/pin-hash.ts); null or absent: no PIN. */
  pin_hash?: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IdempotencyKey {
  /** Chosen by the API, e.g. `${token_id}:${method} ${path}:${header}`. */
  key: string;
  request_hash: string;
  status: number;
  /** The first response's body, as JSON text. */
  response: string;
  created_at: Timestamp;
}

export type ChangeResource = 'return' | 'return_package' | 'package_line_item' | 'media_file' | 'operator' | 'token' | 'station_settings';

export interface ChangeLogEntry {
  /** Monotonic; the live events' id and the future sync outbox order. */
  seq: number;
  account_id: number | null;
  resource: ChangeResource;
  resource_id: number;
  action: 'created' | 'updated' | 'deleted';
  /** The resource after the change (null when deleted). */
  data: unknown;
  created_at: Timestamp;
}

export interface StationMeta {
  key: string;
  value: unknown;
}

/** The normalised tracking number used for uniqueness and lookups. */
export function trackingKey(trackingNumber: string): string {
  return trackingNumber.trim().toLowerCase();
}

/** The key of a record's outbox slot and of its upstream link: `kind:local_id`. */
export function outboxKey(kind: SyncKind, localId: number): string {
  return `${kind}:${localId}`;
}

// ---------------------------------------------------------------------------------------------
// Sync with the upstream returns service (schema version 2; docs/decisions/sync.md)

/** What sync sends and pulls. */
export type SyncKind = 'return' | 'return_package';

/** Why a change cannot go up without a person: `parked` (the upstream refused it), `gone` (404 upstream). */
export type OutboxHold = 'parked' | 'gone';

/**
 * One slot per record with local changes not yet sent upstream. It holds no payload: the body is
 * the difference between the record and its synced snapshot (see UpstreamLink) at send time.
 */
export interface OutboxEntry {
  /** `${kind}:${local_id}`. */
  key: string;
  kind: SyncKind;
  local_id: number;
  account_id: number;
  /** First change since the slot was last cleared; orders the sends. */
  queued_at: Timestamp;
  changed_at: Timestamp;
  /** Failed sends in a row (backoff exponent). */
  attempts: number;
  /** Not before this instant (backoff); null = now. */
  next_attempt_at: Timestamp | null;
  /** Set durably before a create is first sent: a later send looks the record up upstream first. */
  create_attempted_at: Timestamp | null;
  hold: OutboxHold | null;
  /** The upstream's answer that parked the change, or the last transient failure. */
  error: { status: number | null; code: string | null; message: string } | null;
}

/** A local record and its upstream twin. */
export interface UpstreamLink {
  /** `${kind}:${local_id}`. */
  key: string;
  kind: SyncKind;
  local_id: number;
  account_id: number;
  upstream_id: number;
  /** The pushable fields as last known equal on both sides. */
  synced: Record<string, unknown>;
  /** Return lines: local line id → upstream line id (by position). */
  line_ids?: Record<string, number>;
  /** The upstream's `updated_at` of the version applied last: an older answer arriving late is ignored. */
  upstream_updated_at?: Timestamp;
  /**
   * Packages: each local line item's upstream twin and the fields last known equal on both sides;
   * `replaces`: the upstream item deleted to be made again with new values (an upstream without item updates).
   */
  line_items?: Record<string, { upstream_id: number | null; synced: Record<string, unknown>; attempted_at: Timestamp | null; replaces?: number }>;
  /** Packages: set when the upstream answered that it has no line items; they stay on the station. */
  line_items_unsupported?: string;
  /** Packages: set when the upstream neither updates nor deletes line items; it keeps their first values. */
  line_item_changes_kept_local?: string;
  /**
   * Packages: the upload queue of the package's media, by content hash (one upstream file per hash,
   * however many local records name those bytes). `attempted_at` is set durably before an upload is
   * sent: a later try looks the file up upstream first.
   */
  media?: Record<string, { upstream_id: number | null; attempted_at: Timestamp | null }>;
  /** Packages of a site's hub: the hub's `updated_at` of the whole receipt applied last (sync/pull/site-receipts.ts). */
  site_receipt_at?: Timestamp;
  /**
   * Packages: when the upstream's get-one (G) of it was last read and applied: the fields only G
   * shows (shipping method, label cost, actual arrival, processed_at) are known from then on
   * (sync/pull/fresh-reads.ts). Absent: never read one by one.
   */
  detail_at?: Timestamp;
  linked_at: Timestamp;
}

/** One pull stream's position: keyset on the upstream's `updated_at`, or a page of a fixed query. */
export interface PullCursor {
  /** Highest upstream `updated_at` fully stored; null before the first pull. */
  updated_at: Timestamp | null;
  /** Page of the current query (returns; or packages sharing one `updated_at`). */
  page: number;
  /** The query's `updated_since` while a round is under way (returns), else null. */
  round_since: Timestamp | null;
  round_max: Timestamp | null;
  /** Records stored by the current round and the upstream's total for it: first-pull progress. */
  seen: number;
  total: number | null;
  /** Station clock when `updated_at` last moved (a duration base only, never compared with upstream times). */
  advanced_at?: Timestamp | null;
  /**
   * The overlap window below `updated_at` was re-read by a round that began once every record in it
   * had to be committed upstream: later rounds start at `updated_at` itself (no re-read while idle).
   */
  settled?: boolean;
}

/**
 * How one upstream list answers, as the station has seen it (docs/decisions/sync.md, "Pull with page
 * numbers"): nothing here is assumed, each value comes from answers and is dropped when one contradicts it.
 */
export interface UpstreamListState {
  /** The page size the upstream answers when asked for more; null until a page was seen. */
  page_size: number | null;
  /** The plain list's order: by id up or down, neither, or null until a full pass saw it. */
  order: 'id_asc' | 'id_desc' | 'unknown' | null;
  /** The upstream's `total_count` at the last read of the newest end or the end of a pass. */
  total: number | null;
  /** The highest upstream id stored: records above it are new. */
  max_id: number | null;
  /** A full pass under way (first pull, or the count says something was missed): resumable by page. */
  pass: ListPass | null;
  /** When the last full pass ended. */
  passed_at: Timestamp | null;
  /** Station clock of the last read that saw every record newer than `max_id` (a pass, a read of the newest end, a verified change feed). */
  settled_at: Timestamp | null;
  /** The highest upstream `updated_at` a full pass saw (where a verified change feed starts). */
  max_updated_at?: Timestamp | null;
  /** The rolling refresh's next page and when it last read one; the pages that held open packages when last read. */
  rolling_page: number;
  refreshed_at?: Timestamp | null;
  open_pages: number[];
  /** Open pages still to re-read in this cycle of the refresh, when the cycle began, and whether a rolling page was read since. */
  open_queue?: number[];
  open_queued_at?: Timestamp | null;
  rolled_since_queue?: boolean;
  /** `updated_since` (with `sort=updated_at` for packages) as the upstream was seen to treat it. */
  changes: 'unknown' | 'honoured' | 'ignored';
  changes_checked_at: Timestamp | null;
  /** The answer that last contradicted an extension, for a person. */
  contradiction: string | null;
}

/** A full pass over a plain list, page by page: where it is and what it has seen so far. */
export interface ListPass {
  next_page: number;
  /** The page size it reads at: a different one restarts it (pages would shift). */
  page_size: number | null;
  seen: number;
  total: number | null;
  started_at: Timestamp;
  /** The order its pages showed so far, and the last id read (to compare across pages). */
  order: 'id_asc' | 'id_desc' | 'unknown' | null;
  last_id: number | null;
  open_pages: number[];
  max_id: number | null;
  max_updated_at: Timestamp | null;
}

/** An upstream record the station could not store, or a value it could not take: shown once on the sync screen. */
export interface SyncIssue {
  kind: SyncKind;
  upstream_id: number | null;
  /** False when the record itself is not on the station (unreadable, a duplicate upstream, its return unknown). */
  stored: boolean;
  message: string;
  at: Timestamp;
}

export interface SyncAccountState {
  account_id: number;
  packages: PullCursor;
  returns: PullCursor;
  /** What the station found out about the upstream's lists (absent before the first pull of this code). */
  lists?: { packages: UpstreamListState; returns: UpstreamListState };
  /** Upstream records not stored, values not taken, duplicates upstream: each once, newest last. */
  issues?: SyncIssue[];
  /** Set on 401/403: sync of this account waits until the upstream settings change. */
  paused: { status: number; message: string; at: Timestamp } | null;
  last_success_at: Timestamp | null;
  /** Set when the upstream answered that it has no media files (404/405/501): they stay on the station. */
  media_unsupported?: { status: number; message: string; at: Timestamp } | null;
  /**
   * Whether the upstream answers a return by id (`{base_url}/v1/accounts/{id}/returns/{id}`, not in
   * the returns service's spec): found out the first time the dock opens a package (sync/pull/fresh-reads.ts),
   * forgotten when the upstream settings change. Absent or null: not known yet.
   */
  return_get_one?: { answers: boolean; status: number; at: Timestamp } | null;
  /** The background fill of get-only fields (sync/pull/fresh-reads.ts): requests spent in the hour that began at `window_start`. */
  detail_fill?: { window_start: Timestamp; spent: number };
  /** A site's hub: its packages (upstream ids) whose whole receipt is still to be read (sync/pull/site-receipts.ts). */
  site_receipts_due?: number[];
  /**
   * When the station's links were dropped for another upstream (sync/links/relink.ts): units and photos
   * recorded before it are looked for upstream before they are sent. Absent: never relinked.
   */
  relinked_at?: Timestamp | null;
}

/** A value sync replaced, or an upstream value the station kept (ownership rules). */
export interface SyncConflict {
  id: number;
  account_id: number;
  kind: SyncKind;
  local_id: number;
  field: string;
  local_value: unknown;
  upstream_value: unknown;
  /** Whose value the record kept. */
  kept: 'upstream' | 'station';
  at: Timestamp;
}

/**
 * A print job of the label print queue (printing/, docs/decisions/labels-and-print-queue.md). The
 * same fields as the API's `PrintJob` (shared/api/printing.ts); `label` is the label's content as
 * it was when the job was made (a unit label or a package slip).
 */
export interface PrintJobRecord {
  id: number;
  kind: 'unit' | 'slip' | 'test';
  state: 'waiting' | 'sending' | 'printed' | 'cancelled' | 'in_browser';
  unit_id: string | null;
  account_id: number | null;
  return_package_id: number | null;
  line_item_id: number | null;
  label: PrintLabelContent;
  reprint_of: number | null;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Timestamp | null;
  printed_on: string | null;
  printed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A unit label's or a package slip's content (shared/api/printing.ts: UnitLabel, PackageSlip). */
export type PrintLabelContent =
  | {
      unit_id: string;
      sku: string | null;
      name: string | null;
      condition: string | null;
      disposition: string | null;
      bin: string | null;
      tracking_number: string | null;
      date: string;
      worker: string | null;
    }
  | {
      tracking_number: string;
      return_package_id: number;
      date: string;
      worker: string | null;
      units: Array<{ unit_id: string; sku: string | null; disposition: string | null; bin: string | null }>;
    };
