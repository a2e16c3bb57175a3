import { z } from 'zod';
import { CurrencySchema, NameSchema } from './common.ts';
import { DispositionRulesSchema } from './disposition-rules.ts';
import { SerialRulesSchema } from './serial-rules.ts';
import { BadgeCodeSchema, SignInKeySchema } from './station.ts';
import { UNSET_CONDITION_POLICIES } from './station-settings.ts';
import { DEFAULT_WEIGHT_CHECK, WeightCheckSettingsSchema } from './weight-check.ts';

/*
 * The site's configuration, owned by the hub and taken by its members (docs/decisions/site-config.md):
 * the workers, the disposition rules and bins, and the rule-like settings. Printers, scales and
 * screens are each station's own and are not in it.
 */

/** A scrypt PIN hash as auth/pin-hash.ts stores it (`scrypt$N$r$p$salt$hash`). */
export const PinHashSchema = z
  .string()
  .regex(/^scrypt\$\d{1,8}\$\d{1,3}\$\d{1,3}\$[A-Za-z0-9_-]{1,100}\$[A-Za-z0-9_-]{1,200}$/)
  .max(400);

/** One worker of the site, as the hub keeps it: `uid` is the worker's id on every station. */
export const SiteWorkerSchema = z.strictObject({
  uid: z.uuid(),
  name: NameSchema,
  badge_code: BadgeCodeSchema.nullable(),
  sign_in_key: SignInKeySchema.nullable(),
  role: z.enum(['worker', 'supervisor']),
  active: z.boolean(),
  /** The PIN's scrypt hash; null: no PIN. Only members of the site are sent it. */
  pin_hash: PinHashSchema.nullable(),
});
export type SiteWorker = z.infer<typeof SiteWorkerSchema>;

/** At most this many workers travel in one configuration. */
export const MAX_SITE_WORKERS = 2_000;

/** The settings that decide like rules do: receiving with conditions unset, the currency, the weight check, the serial rules. */
export const SiteRuleSettingsSchema = z.strictObject({
  unset_conditions: z.enum(UNSET_CONDITION_POLICIES),
  currency: CurrencySchema.nullable(),
  /** The weight check's tolerance and box tare (a hub from before it sends none: the defaults). */
  weight_check: WeightCheckSettingsSchema.default(DEFAULT_WEIGHT_CHECK),
  /** Which units need their serial (a hub of a version before them sends none: none needed). */
  serial_rules: SerialRulesSchema.default([]),
});

/** `GET /api/v1/station/site/config`: the hub's configuration for its members, with its version (also the ETag). */
export const SiteConfigSchema = z.strictObject({
  /** Changes whenever anything in it changes (a hash of the rest). */
  version: z.string().regex(/^[0-9a-f]{32}$/),
  workers: z.array(SiteWorkerSchema).max(MAX_SITE_WORKERS),
  disposition_rules: DispositionRulesSchema,
  settings: SiteRuleSettingsSchema,
});
export type SiteConfig = z.infer<typeof SiteConfigSchema>;

/** What a member shows of the site's configuration it took (`GET /api/v1/station/site` on a member). */
export const SiteManagedSchema = z.object({
  /** The hub that owns the workers, the rules and the rule-like settings. */
  hub_url: z.string(),
  /** The version taken last; null before the first. */
  version: z.string().nullable(),
  taken_at: z.string().nullable(),
  /** This station's own rules from before it joined: kept aside, not applied; null when it had none of its own. */
  own_rules_before_join: DispositionRulesSchema.nullable(),
});
export type SiteManaged = z.infer<typeof SiteManagedSchema>;
