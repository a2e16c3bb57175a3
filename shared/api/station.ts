import { z } from 'zod';
import { PrintingStatusSchema } from './printing.ts';
import { StationSettingsSchema } from './station-settings.ts';
import { CalendarDateSchema, MAX_LENGTH, NameSchema, TimestampSchema, listResponse } from './common.ts';
import { ReturnRecordSchema } from './returns.ts';
import { StationPackageListItemSchema } from './return-packages.ts';

/*
 * Station resources (docs/api-reference.md, Station resources: station token only) and station configuration
 * (carriers, locations).
 */

// ---------------------------------------------------------------------------------------------
// Status

export const SYNC_STATES = ['disabled', 'online', 'offline', 'error'] as const;
export const SyncStateSchema = z.enum(SYNC_STATES);

/** Sync state of the station (also the payload of the `sync.status` event). */
export const SyncStatusSchema = z.object({
  state: SyncStateSchema,
  /** Local changes not yet sent upstream. */
  pending_changes: z.int().min(0),
  last_success_at: TimestampSchema.nullable(),
  /** A short, user-presentable reason when `state` is `error` or `offline`; else null. */
  last_error: z.string().nullable(),
  /**
   * Set when the upstream has no media files (it answered 404/405/501 on them): photos stay on the
   * station and everything else keeps syncing. Starts with `media kept local: upstream has no media support`.
   */
  media_kept_local: z.string().nullable(),
  /**
   * While the upstream fails (5xx) or cannot be reached, sync sends nothing until this instant (it
   * honours the upstream's Retry-After); then one request probes it. Null when sync is not backing off.
   */
  backoff_until: TimestampSchema.nullable(),
  /**
   * How the station learns of the upstream's changes: `following` its event stream (a Returns
   * Station, such as the site's hub, has one: changes arrive in seconds), or `polling` by the pull
   * interval (a returns service without one). Null while sync is off or not yet known.
   */
  upstream_events: z.enum(['following', 'polling']).nullable(),
  /** How often the station reads its upstream's lists when nothing tells it of a change (the pull interval), in ms; null while sync is off. */
  pull_interval_ms: z.int().positive().nullable(),
  /**
   * The site's hub this station joined and syncs with (`site join`), named wherever sync is shown;
   * null when its upstream is a returns service, or sync is off.
   */
  hub: z.object({ url: z.url() }).nullable(),
});
export type SyncStatus = z.infer<typeof SyncStatusSchema>;

export const StationAccountSchema = z.object({ id: z.int() });

/** Where the station keeps media, and how much room is left (uploads are refused when full). */
export const StationStorageSchema = z.object({
  /** Bytes of media the station holds. */
  media_bytes: z.int().min(0),
  /** The media budget in bytes; null when only the disk limits it. */
  media_budget_bytes: z.int().min(0).nullable(),
  /** Free bytes on the disk that holds the data directory; null when unknown. */
  disk_free_bytes: z.int().min(0).nullable(),
  /** `ok`; `low` under 10 % of the budget or 1 GiB of disk left; `full` when uploads are refused. */
  state: z.enum(['ok', 'low', 'full']),
});
export type StationStorage = z.infer<typeof StationStorageSchema>;

/** Where the station listens: the address stations join and handhelds open, and the certificate they pin. */
export const StationAddressSchema = z.object({
  /** The station's origin (https beyond loopback; a wildcard bind is named by the machine's first site address). */
  origin: z.url(),
  /** Null: plain HTTP on loopback, reachable from this machine only. */
  tls: z
    .object({
      /** `station`: a site certificate authority the station made and keeps; `site`: the site's own certificate files. */
      source: z.enum(['station', 'site']),
      /** SHA-256 of the certificate clients pin (the authority; the top of a site's chain), as upper-case hex pairs. */
      fingerprint_sha256: z.string().regex(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
      /** When the serving certificate ends (a station's own is renewed at a start within 30 days of it). */
      serving_certificate_expires_at: z.iso.datetime(),
    })
    .nullable(),
});
export type StationAddress = z.infer<typeof StationAddressSchema>;

/** `GET /api/v1/station`. */
export const StationStatusSchema = z.object({
  name: z.string(),
  version: z.string(),
  accounts: z.array(StationAccountSchema),
  /** Counts for the station's local calendar day `date`. */
  today: z.object({
    date: CalendarDateSchema,
    /** Packages moved to `received` today. */
    received: z.int().min(0),
    /** Packages with line items or media recorded today that are not yet received. */
    in_progress: z.int().min(0),
  }),
  sync: SyncStatusSchema,
  storage: StationStorageSchema,
  /** The station's settings (also `GET /api/v1/station/settings`): terminals pick up a change within a status poll. */
  settings: StationSettingsSchema,
  /** The labels still to print, and why the oldest did not print yet. */
  printing: PrintingStatusSchema,
  /** Where the station listens; null in a station that is not listening (tests that inject requests). */
  address: StationAddressSchema.nullable(),
});
export type StationStatus = z.infer<typeof StationStatusSchema>;

// ---------------------------------------------------------------------------------------------
// Lookup

/** `GET /api/v1/station/lookup?code=...`: the scanned code (normalised by the server too). */
export const LookupQuerySchema = z.strictObject({
  code: z.string().min(1).max(MAX_LENGTH.lookupCode),
});

/** A package found by a scan: a list row naming its account (as in the station-wide package list). */
export const LookupPackageSchema = StationPackageListItemSchema;
export type LookupPackage = z.infer<typeof LookupPackageSchema>;

export const LOOKUP_MATCHES = ['id', 'email', 'merchant_sku'] as const;
export const LookupReturnSchema = z.object({
  account_id: z.int(),
  /** What the code matched: the return's id, its customer email, or a line's SKU. */
  matched_by: z.enum(LOOKUP_MATCHES),
  /** The return lines whose SKU matched (empty unless `matched_by` is `merchant_sku`). */
  matched_line_item_ids: z.array(z.int()),
  return: ReturnRecordSchema,
});
export type LookupReturn = z.infer<typeof LookupReturnSchema>;

/** A unit label scanned: the unit's line item, whose package is `packages[0]`. */
export const LookupUnitSchema = z.object({
  unit_id: z.string(),
  account_id: z.int(),
  return_package_id: z.int(),
  line_item_id: z.int(),
});
export type LookupUnit = z.infer<typeof LookupUnitSchema>;

/**
 * What a scan means across every account on the station: a unit id (a unit label: its package and
 * item); else packages whose tracking number matches one of the candidate codes; else (when `packages` is empty) returns matching it as an id, email
 * or SKU. Both empty: unknown code.
 */
export const LookupResponseSchema = z.object({
  code: z.string(),
  /** The codes looked up, most likely first (see shared/barcode.ts). */
  candidates: z.array(z.string()),
  packages: z.array(LookupPackageSchema),
  returns: z.array(LookupReturnSchema),
  /** When the code is a unit id (a unit label): its line item; its package is then the one of `packages`. Else null. */
  unit: LookupUnitSchema.nullable(),
});
export type LookupResponse = z.infer<typeof LookupResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Operators

/** Badge code: 1–64 visible characters, unique among operators. */
export const BadgeCodeSchema = z
  .string()
  .min(1)
  .max(MAX_LENGTH.badgeCode)
  .regex(/^[\x21-\x7E]+$/, 'Expected 1–64 visible characters without spaces.');

/** What a worker may do: a `worker` receives; a `supervisor` (badge plus PIN) also changes settings, rules, printers, tokens, the upstream and the workers. */
export const OPERATOR_ROLES = ['worker', 'supervisor'] as const;
export const OperatorRoleSchema = z.enum(OPERATOR_ROLES);
export type OperatorRole = z.infer<typeof OperatorRoleSchema>;

/** A supervisor's PIN: 4–8 digits (typed on a dock keypad). Stored only as a slow salted hash. */
/** How many digits a supervisor's PIN has. */
export const PIN_DIGITS = { min: 4, max: 8 } as const;
export const PinSchema = z
  .string()
  .regex(new RegExp(`^[0-9]{${PIN_DIGITS.min},${PIN_DIGITS.max}}$`), `Expected a PIN of ${PIN_DIGITS.min}–${PIN_DIGITS.max} digits.`);

/** The number key (1–9) a worker presses on the sign-in screen; unique among active workers. */
export const SignInKeySchema = z.int().min(1).max(9);

/** A supervisor signs in with a badge and a PIN: both are required for one. */
function supervisorHasBadgeAndPin(
  body: { role?: OperatorRole | undefined; badge_code?: string | null | undefined; pin?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (body.role !== 'supervisor') return;
  if (body.badge_code === null || body.badge_code === undefined) ctx.addIssue({ code: 'custom', path: ['badge_code'], message: 'A supervisor needs a badge.' });
  if (body.pin === undefined) ctx.addIssue({ code: 'custom', path: ['pin'], message: 'A supervisor needs a PIN.' });
}

export const OperatorCreateSchema = z
  .strictObject({
    name: NameSchema,
    badge_code: BadgeCodeSchema.nullable().default(null),
    active: z.boolean().default(true),
    role: OperatorRoleSchema.default('worker'),
    sign_in_key: SignInKeySchema.nullable().default(null),
    /** Required for a supervisor; a worker may have none. */
    pin: PinSchema.optional(),
  })
  .superRefine(supervisorHasBadgeAndPin)
  .meta({
    if: { properties: { role: { const: 'supervisor' } }, required: ['role'] },
    then: { required: ['badge_code', 'pin'], properties: { badge_code: { type: 'string' } } },
  });
export type OperatorCreate = z.infer<typeof OperatorCreateSchema>;
export type OperatorCreateInput = z.input<typeof OperatorCreateSchema>;

export const OperatorUpdateSchema = z
  .strictObject({
    name: NameSchema.optional(),
    badge_code: BadgeCodeSchema.nullable().optional(),
    active: z.boolean().optional(),
    role: OperatorRoleSchema.optional(),
    sign_in_key: SignInKeySchema.nullable().optional(),
    /** A new PIN (a PIN reset): the worker's supervisor sessions end. */
    pin: PinSchema.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Give at least one field to change.')
  .meta({ minProperties: 1 });
export type OperatorUpdate = z.infer<typeof OperatorUpdateSchema>;

export const OperatorSchema = z.object({
  id: z.int(),
  /** The worker's stable id (a UUID): the same on every station that knows the worker; `id` is this station's number for it (the `processor_id`). */
  uid: z.uuid(),
  name: z.string(),
  badge_code: z.string().nullable(),
  active: z.boolean(),
  role: OperatorRoleSchema,
  sign_in_key: z.int().nullable(),
  /** Whether a PIN is set (the PIN itself is never shown). */
  has_pin: z.boolean(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type Operator = z.infer<typeof OperatorSchema>;
export const OperatorListResponseSchema = listResponse(OperatorSchema);

// ---------------------------------------------------------------------------------------------
// Carriers and locations

export const CarrierSchema = z.object({
  id: z.int(),
  name: z.string(),
  /** Short machine code, e.g. `ups`, `usps`, `fedex`, `dhl`. */
  code: z.string(),
  /** Default service name, e.g. `Ground`; null when not set. */
  service: z.string().nullable(),
});
export const CarrierListResponseSchema = listResponse(CarrierSchema);

export const LocationSchema = z.object({
  id: z.int(),
  name: z.string(),
  code: z.string(),
  fulfillment_center_id: z.int().nullable(),
});
export const LocationListResponseSchema = listResponse(LocationSchema);
