import { z } from 'zod';
import { INT32_MAX, NameSchema, TimestampSchema } from './common.ts';

/*
 * Access tokens, managed while the station runs (station token only). A token's secret is shown
 * once, in the answer that creates it; the station keeps only its hash.
 */

/** A token a supervisor session makes stops working after this many days at most (the command line's may last longer). */
export const SUPERVISOR_TOKEN_MAX_DAYS = 30;

export const TOKEN_SCOPES = ['account', 'station'] as const;

/**
 * What a station token may do: `admin` everything (tokens made by `returns-station token create` or
 * by a supervisor); `terminal` the dock's work but no settings (the UI link of `serve`, the desktop
 * window); `supervisor` a supervisor's short session (badge plus PIN).
 */
export const STATION_TOKEN_ROLES = ['admin', 'terminal', 'supervisor'] as const;

export const TokenSchema = z.object({
  id: z.int(),
  scope: z.enum(TOKEN_SCOPES),
  /** The account of an account token; null for a station token (every account). */
  account_id: z.int().nullable(),
  /** A station token's role; null for an account token. */
  role: z.enum(STATION_TOKEN_ROLES).nullable(),
  name: z.string(),
  created_at: TimestampSchema,
  expires_at: TimestampSchema.nullable(),
  revoked_at: TimestampSchema.nullable(),
});
export type TokenView = z.infer<typeof TokenSchema>;

export const TokenListResponseSchema = z.object({ data: z.array(TokenSchema) });

export const TokenCreateSchema = z
  .strictObject({
    scope: z.enum(TOKEN_SCOPES),
    /** Required for an account token (the account comes into being with it); absent for a station token. */
    account_id: z.int().min(1).max(INT32_MAX).optional(),
    name: NameSchema.optional(),
    /**
     * Days until the token stops working; absent: it never expires, except for a supervisor session's
     * token, which lasts SUPERVISOR_TOKEN_MAX_DAYS at most (absent: that many).
     */
    expires_in_days: z.int().min(1).max(3650).optional(),
  })
  .refine((body) => (body.scope === 'account') === (body.account_id !== undefined), {
    message: 'An account token needs account_id; a station token has none.',
    path: ['account_id'],
  })
  .meta({
    oneOf: [
      { properties: { scope: { const: 'account' } }, required: ['account_id'] },
      { properties: { scope: { const: 'station' } }, not: { required: ['account_id'] } },
    ],
  });
export type TokenCreateInput = z.input<typeof TokenCreateSchema>;

/** The created token with its secret: shown this once. */
export const TokenCreatedSchema = TokenSchema.extend({ secret: z.string() });
export type TokenCreated = z.infer<typeof TokenCreatedSchema>;
