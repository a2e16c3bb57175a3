import { z } from 'zod';
import { PACKAGE_STATUSES } from '../package-status.ts';
import { DISPOSITIONS, unreachableRules, type Disposition } from '../dispositions.ts';
import { MAX_LENGTH, NOT_BLANK_PATTERN, TimestampSchema } from './common.ts';
import { BinSchema, ConditionSchema, DispositionSchema } from './line-items.ts';

/*
 * The station's disposition rules (`GET` / `PUT /api/v1/station/disposition-rules`): how each
 * disposition is named and coloured, and the ordered rule table that gives an inspected item its
 * disposition and bin (first match wins). Kept with the station settings and change-logged like them.
 * docs/api-reference.md, Disposition rules; the evaluation is shared/dispositions.ts.
 */

export const MAX_DISPOSITION_RULES = 100;
export const MAX_RULE_TEXT_LENGTH = 100;

export const DispositionStyleSchema = z.strictObject({
  label: z.string().trim().min(1, 'Give a label.').max(40).meta({ pattern: NOT_BLANK_PATTERN }),
  color: z
    .string()
    .regex(/^#[0-9A-Fa-f]{6}$/, 'A colour is #rrggbb (hex).')
    .meta({ description: 'A colour as #rrggbb.' }),
});

/** One entry per disposition: a station renames and colours its six dispositions, never adds one. */
export const DispositionStylesSchema = z.strictObject(
  Object.fromEntries(DISPOSITIONS.map((key) => [key, DispositionStyleSchema])) as Record<Disposition, typeof DispositionStyleSchema>,
);

/** A set of values, at least one, each once: an empty set would match no item. */
function valueSet<T extends z.ZodType>(element: T, what: string) {
  return z
    .array(element)
    .min(1, `An empty ${what} set matches no item: leave it out (null) for any ${what}.`)
    .refine((values) => new Set(values).size === values.length, `Each ${what} once.`)
    .meta({ uniqueItems: true });
}

const ruleText = (max: number) => z.string().trim().min(1, 'Must not be blank: leave it out (null) for any.').max(max).meta({ pattern: NOT_BLANK_PATTERN });

/**
 * A rule as sent: its conditions (each left out or null: any) → a disposition and a bin. Rules apply
 * to inspected items (a condition set, or marked defective); a defective item without a condition
 * matches only rules whose `condition` is null, an item without a SKU only rules whose `sku_prefix` is null.
 */
export const DispositionRuleInputSchema = z.strictObject({
  /** A name for people (the rules screen, the log); optional. */
  name: ruleText(60).nullable().default(null),
  condition: valueSet(ConditionSchema, 'condition').nullable().default(null),
  defective: z.boolean().nullable().default(null),
  /** The return's `reason_of_return` contains this text, case-insensitive. */
  reason_contains: ruleText(MAX_RULE_TEXT_LENGTH).nullable().default(null),
  /** The item's SKU starts with this, case-insensitive. */
  sku_prefix: ruleText(MAX_LENGTH.sku).nullable().default(null),
  /** The package's status when the rule is applied (the item recorded or its condition changed). */
  package_status: valueSet(z.enum(PACKAGE_STATUSES), 'package status').nullable().default(null),
  disposition: DispositionSchema,
  bin: BinSchema,
});

/** A rule as answered: every field present, null for any. */
export const DispositionRuleSchema = z.object({
  name: z.string().nullable(),
  condition: z.array(ConditionSchema).nullable(),
  defective: z.boolean().nullable(),
  reason_contains: z.string().nullable(),
  sku_prefix: z.string().nullable(),
  package_status: z.array(z.enum(PACKAGE_STATUSES)).nullable(),
  disposition: DispositionSchema,
  bin: z.string(),
});
export type DispositionRule = z.infer<typeof DispositionRuleSchema>;

/** The rule table: 1–100 rules, none a duplicate of or hidden by the rules before it. */
export const DispositionRuleListSchema = z
  .array(DispositionRuleInputSchema)
  .min(1, 'Give at least one rule.')
  .max(MAX_DISPOSITION_RULES)
  .superRefine((rules, ctx) => {
    for (const { index, message } of unreachableRules(rules)) ctx.addIssue({ code: 'custom', path: [index], message });
  });

/** `PUT /api/v1/station/disposition-rules`: the whole rule table, and the dispositions' names and colours (left out: kept). */
export const DispositionRulesUpdateSchema = z.strictObject({
  dispositions: DispositionStylesSchema.optional(),
  rules: DispositionRuleListSchema,
});
export type DispositionRulesUpdate = z.infer<typeof DispositionRulesUpdateSchema>;
export type DispositionRulesUpdateInput = z.input<typeof DispositionRulesUpdateSchema>;

export const DispositionRulesSchema = z.object({
  dispositions: z.object(
    Object.fromEntries(DISPOSITIONS.map((key) => [key, z.object({ label: z.string(), color: z.string() })])) as Record<
      Disposition,
      z.ZodObject<{ label: z.ZodString; color: z.ZodString }>
    >,
  ),
  rules: z.array(DispositionRuleSchema),
  /** When a person last changed them; null: never (the defaults). */
  updated_at: TimestampSchema.nullable(),
});
export type DispositionRules = z.infer<typeof DispositionRulesSchema>;
