import { z } from 'zod';
import { IdSchema, PaginationQueryShape, TimestampSchema, commaListMeta, listResponse, WHITE_SPACE } from './common.ts';
import { SyncStatusSchema } from './station.ts';

/*
 * Sync with the upstream returns service, as the API shows it (docs/api-decisions.md, "Sync").
 */

export const SYNC_KINDS = ['return', 'return_package'] as const;
export const SyncKindSchema = z.enum(SYNC_KINDS);

/** Where one change stands: waiting to go, backing off after a failure, or held for a person. */
export const SYNC_CHANGE_STATES = ['waiting', 'retrying', 'parked', 'gone'] as const;
export const SyncChangeStateSchema = z.enum(SYNC_CHANGE_STATES);

export const SyncErrorSchema = z.object({
  /** The upstream's HTTP status; null when no answer came (network). */
  status: z.int().nullable(),
  code: z.string().nullable(),
  /** The upstream's own message. */
  message: z.string(),
});

/** A record with local changes the upstream has not taken yet. */
export const SyncChangeSchema = z.object({
  kind: SyncKindSchema,
  id: z.int(),
  account_id: z.int(),
  /** What a person recognises: the package's tracking number, or the return's customer email. */
  label: z.string(),
  state: SyncChangeStateSchema,
  queued_at: TimestampSchema,
  attempts: z.int().min(0),
  next_attempt_at: TimestampSchema.nullable(),
  error: SyncErrorSchema.nullable(),
});
export type SyncChange = z.infer<typeof SyncChangeSchema>;

export const SyncChangeListQuerySchema = z.strictObject({
  ...PaginationQueryShape,
  /** Only changes in these states (comma-separated); all by default. */
  state: z
    .string()
    .optional()
    .meta(commaListMeta(SYNC_CHANGE_STATES))
    .transform((value, ctx) => {
      if (value === undefined || value === '') return undefined;
      const states = value.split(',');
      for (const state of states) {
        if (!(SYNC_CHANGE_STATES as readonly string[]).includes(state)) {
          ctx.addIssue({ code: 'custom', message: `Expected states among ${SYNC_CHANGE_STATES.join(', ')}.` });
          return z.NEVER;
        }
      }
      return states as Array<(typeof SYNC_CHANGE_STATES)[number]>;
    }),
});
export const SyncChangeListResponseSchema = listResponse(SyncChangeSchema);

/** `POST /api/v1/station/sync/retry` and `/keep-local`: which record. */
export const SyncChangeRefSchema = z.strictObject({ kind: SyncKindSchema, id: IdSchema });
export type SyncChangeRef = z.infer<typeof SyncChangeRefSchema>;

/** A value sync replaced, or an upstream value the station kept (ownership rules). */
export const SyncConflictSchema = z.object({
  id: z.int(),
  account_id: z.int(),
  kind: SyncKindSchema,
  record_id: z.int(),
  field: z.string(),
  local_value: z.unknown(),
  upstream_value: z.unknown(),
  kept: z.enum(['upstream', 'station']),
  at: TimestampSchema,
});

/*
 * The upstream's two addresses, as the returns service's spec names them: manual returns at
 * `{returns_url}/returns`; return packages at `{base_url}/v1/accounts/{id}/return_packages` and an
 * account's returns listing at `{base_url}/v1/accounts/{id}/returns`. A Returns Station serves them
 * at one address: `returns_url` is the station's address and `base_url` that address plus `/api`.
 */

/** What makes a Returns Station's address a `base_url`. */
export const STATION_API_PATH = '/api';

/** An address with its trailing slashes taken off (the paths are added after a `/`). */
export function trimAddress(url: string): string {
  return url.replace(/\/+$/, '');
}

/** The two addresses of a Returns Station at `url` (the one-address shorthand). */
export function stationAddresses(url: string): { returns_url: string; base_url: string } {
  const returnsUrl = trimAddress(url);
  return { returns_url: returnsUrl, base_url: `${returnsUrl}${STATION_API_PATH}` };
}

/** The station URL whose shorthand gives these addresses; null when they are not a station's layout. */
export function stationUrlOf(addresses: { returns_url: string; base_url: string }): string | null {
  return addresses.base_url === `${addresses.returns_url}${STATION_API_PATH}` ? addresses.returns_url : null;
}

const hasNoQueryOrFragment = (url: string): boolean => {
  try {
    const parsed = new URL(url);
    return parsed.search === '' && parsed.hash === '' && !url.includes('?') && !url.includes('#');
  } catch {
    return true; // the URL check reports it
  }
};

/** One upstream address: http or https, user-info allowed (never shown), no query or fragment. */
const UpstreamAddressSchema = z
  .url({ protocol: /^https?$/, error: 'Must be an http:// or https:// URL.' })
  .max(2048)
  .refine(hasNoQueryOrFragment, 'Must have no query (?…) or fragment (#…): paths are added to it.')
  .meta({ pattern: `^[Hh][Tt][Tt][Pp][Ss]?://[^${WHITE_SPACE}/?#]+(?:/[^${WHITE_SPACE}?#]*)?$` });

/** The upstream settings as shown: never the token, never user-info. None set: addresses null, no accounts, `token_set` false. */
export const UpstreamViewSchema = z.object({
  returns_url: z.string().nullable().describe('Manual returns are created and listed at `{returns_url}/returns`.'),
  base_url: z.string().nullable().describe('Return packages and account listings are at `{base_url}/v1/accounts/{account_id}/…`.'),
  accounts: z.array(z.int()),
  token_set: z.boolean(),
});

/**
 * `POST /api/v1/station/upstream`: replaces the settings (station token only). Either `url` (a
 * Returns Station: `returns_url = url`, `base_url = url + '/api'`) or both `returns_url` and
 * `base_url`; the JSON Schema says so with `oneOf` and `dependentRequired`, the check names the field.
 */
export const UpstreamSettingsInputSchema = z
  .strictObject({
    url: UpstreamAddressSchema.optional().describe(
      "Shorthand for a Returns Station's address: `returns_url` is it, `base_url` is it plus `/api`. Not with `returns_url` or `base_url`.",
    ),
    returns_url: UpstreamAddressSchema.optional().describe('Where manual returns are: `{returns_url}/returns`. With `base_url`.'),
    base_url: UpstreamAddressSchema.optional().describe(
      'Where return packages and account listings are: `{base_url}/v1/accounts/{account_id}/…`. With `returns_url`.',
    ),
    token: z.string().min(1).max(4096),
    accounts: z.array(IdSchema).min(1).max(100),
  })
  .superRefine(
    (input, ctx) => {
      const given = (key: 'url' | 'returns_url' | 'base_url') => input[key] !== undefined;
      if (given('url')) {
        if (given('returns_url') || given('base_url')) {
          ctx.addIssue({ code: 'custom', path: ['url'], message: 'Give either url (a Returns Station) or returns_url and base_url, not both.' });
        }
        return;
      }
      if (!given('returns_url'))
        ctx.addIssue({
          code: 'custom',
          path: ['returns_url'],
          message: given('base_url') ? 'Required with base_url.' : 'Required (with base_url), or give url for a Returns Station.',
        });
      if (!given('base_url'))
        ctx.addIssue({
          code: 'custom',
          path: ['base_url'],
          message: given('returns_url') ? 'Required with returns_url.' : 'Required (with returns_url), or give url for a Returns Station.',
        });
    },
    // Which addresses were given is told even when another field is wrong too (a body that is an object).
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value) },
  )
  .meta({
    oneOf: [{ required: ['url'] }, { required: ['returns_url', 'base_url'] }],
    dependentRequired: { returns_url: ['base_url'], base_url: ['returns_url'] },
  });
export type UpstreamSettingsInput = z.input<typeof UpstreamSettingsInputSchema>;

/** An upstream record the station did not store, or a value it did not take. */
export const SyncIssueSchema = z.object({
  account_id: z.int(),
  kind: SyncKindSchema,
  /** The upstream's id of the record; null when the record had none the station could read. */
  upstream_id: z.int().nullable(),
  /** False: the record is not on the station. */
  stored: z.boolean(),
  message: z.string(),
  at: TimestampSchema,
});

/** How one upstream list answers, as the station found out from its answers (nothing assumed). */
export const UpstreamListViewSchema = z.object({
  account_id: z.int(),
  resource: z.enum(['returns', 'return_packages']),
  /** The page size the upstream answers; null until a page was read. */
  page_size: z.int().nullable(),
  /** The plain list's order by id; null until a full read saw it. */
  order: z.enum(['id_asc', 'id_desc', 'unknown']).nullable(),
  /** `updated_since` (with `sort=updated_at` for packages): used only once `honoured` was seen. */
  changes: z.enum(['unknown', 'honoured', 'ignored']),
  /** The upstream's count at the last read. */
  total: z.int().nullable(),
  /** When the last full read ended. */
  passed_at: TimestampSchema.nullable(),
  /** The answer that last made the station drop something it had found. */
  contradiction: z.string().nullable(),
});

/** `GET /api/v1/station/sync`: the state, the settings and the last values sync replaced or kept. */
export const SyncOverviewSchema = z.object({
  status: SyncStatusSchema,
  upstream: UpstreamViewSchema.nullable(),
  /** The newest 50 overwrites, newest first. */
  conflicts: z.array(SyncConflictSchema),
  /** Pulls under way (a first pull of a large account takes a while): records stored so far of the upstream's total. */
  pulls: z.array(z.object({ account_id: z.int(), resource: z.enum(['returns', 'return_packages']), stored: z.int().min(0), total: z.int().min(0).nullable() })),
  /** Upstream records not stored (unreadable, a duplicate upstream, return unknown) and values not taken, each once, newest first (at most 100). */
  issues: z.array(SyncIssueSchema),
  /** What the station found out about each account's upstream lists (docs/decisions/sync.md, "Discovery"). */
  lists: z.array(UpstreamListViewSchema),
});
export type SyncOverview = z.infer<typeof SyncOverviewSchema>;

/** Where one record stands against the upstream. */
export const RECORD_SYNC_STATES = ['local_only', 'pending', 'synced', 'parked', 'gone'] as const;
export const RecordSyncSchema = z.object({
  /** The upstream's id of this record; null until it is linked. */
  upstream_id: z.int().nullable(),
  /** `local_only`: no upstream set for its account; `pending`: changes waiting; `synced`: nothing waiting. */
  state: z.enum(RECORD_SYNC_STATES),
  error: SyncErrorSchema.nullable(),
  linked_at: TimestampSchema.nullable(),
});
export type RecordSync = z.infer<typeof RecordSyncSchema>;
