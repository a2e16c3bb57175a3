import { z } from 'zod';
import { NameSchema, TimestampSchema } from './common.ts';
import { BadgeCodeSchema, OperatorSchema, PinSchema, SignInKeySchema } from './station.ts';

/*
 * Supervisor sessions: a supervisor's badge and PIN give a short-lived token that may change what
 * only a supervisor may (docs/decisions/supervisor.md). A station without a supervisor takes its
 * first one from any station token, once.
 */

/** How long a supervisor session lasts from its sign-in. */
export const SUPERVISOR_SESSION_MINUTES = 15;
/** Wrong PINs in a row that lock a badge, and for how long. */
export const SIGN_IN_ATTEMPTS = 5;
export const SIGN_IN_LOCK_MINUTES = 5;
/** Sign-in tries each station token may send a minute, whatever the badges (bounds guessing across badges). */
export const SIGN_IN_TRIES_PER_MINUTE = 10;

export const SupervisorSignInSchema = z.strictObject({
  badge_code: BadgeCodeSchema,
  pin: PinSchema,
});
export type SupervisorSignIn = z.infer<typeof SupervisorSignInSchema>;

/** A badge scanned at a terminal that knows no worker with it: does it need a PIN (a supervisor's)? */
export const BadgeCheckSchema = z.strictObject({
  badge_code: BadgeCodeSchema,
});
export type BadgeCheck = z.infer<typeof BadgeCheckSchema>;

export const BadgeCheckAnswerSchema = z.object({
  /** True for an active supervisor's badge (sign in with its PIN); false for any other code, known or not. */
  pin_needed: z.boolean(),
});
export type BadgeCheckAnswer = z.infer<typeof BadgeCheckAnswerSchema>;

export const FirstSupervisorSchema = z.strictObject({
  name: NameSchema,
  badge_code: BadgeCodeSchema,
  pin: PinSchema,
  sign_in_key: SignInKeySchema.nullable().default(null),
});
export type FirstSupervisor = z.infer<typeof FirstSupervisorSchema>;
export type FirstSupervisorInput = z.input<typeof FirstSupervisorSchema>;

/** A supervisor session: its bearer token (shown once) and who it is. */
export const SupervisorSessionSchema = z.object({
  token: z.string(),
  expires_at: TimestampSchema,
  operator: OperatorSchema,
});
export type SupervisorSession = z.infer<typeof SupervisorSessionSchema>;
