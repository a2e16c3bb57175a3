import { z } from 'zod';
import { IdSchema, PaginationQueryShape, TimestampSchema, listResponse } from './common.ts';
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

/** The upstream settings as shown: never the token. None set: `url` null, no accounts, `token_set` false. */
export const UpstreamViewSchema = z.object({ url: z.string().nullable(), accounts: z.array(z.int()), token_set: z.boolean() });

/** `POST /api/v1/station/upstream`: replaces the settings (station token only). */
export const UpstreamSettingsInputSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).max(2048),
  token: z.string().min(1).max(4096),
  accounts: z.array(IdSchema).min(1).max(100),
});

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
