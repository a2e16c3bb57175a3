import { z } from 'zod';
import { MAX_SERIAL_LENGTH, SERIAL_PATTERN, SKU_PATTERN_PATTERN } from '../serials.ts';

/*
 * Serial rules (a station setting, the site's hub's on a member): a rule per SKU pattern saying a
 * unit needs its serial, and of which kind. docs/api-reference.md, Serial numbers; the evaluation
 * is shared/serials.ts.
 */

export const MAX_SERIAL_RULES = 50;

/** A serial as recorded on a unit: 1–33 visible ASCII characters without spaces (it goes up as the tag `serial:<value>`). */
export const SerialSchema = z
  .string()
  .trim()
  .regex(new RegExp(SERIAL_PATTERN), `A serial is 1–${MAX_SERIAL_LENGTH} visible ASCII characters without spaces.`)
  .meta({ description: `A unit's serial number: 1–${MAX_SERIAL_LENGTH} visible ASCII characters without spaces; surrounding white space is dropped.` });

export const SkuPatternSchema = z
  .string()
  .trim()
  .regex(new RegExp(SKU_PATTERN_PATTERN), 'A SKU pattern is 1–64 visible characters without spaces; * stands for any characters, ? for one.')
  .meta({ description: 'A glob over the whole SKU, without regard to case: `*` any run of characters (none too), `?` one character; e.g. `PHONE-*`.' });

const length = z.int().min(1).max(MAX_SERIAL_LENGTH);

export const SerialRuleSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    sku_pattern: SkuPatternSchema,
    /** 15 digits whose last is the Luhn check digit. */
    kind: z.literal('imei'),
  }),
  z.strictObject({
    sku_pattern: SkuPatternSchema,
    /** Any serial between the bounds. */
    kind: z.literal('text'),
    min_length: length.default(1),
    max_length: length.default(MAX_SERIAL_LENGTH),
  }),
]);

/** The rules in order, first match wins: no pattern twice, a text rule's bounds in order. */
export const SerialRulesSchema = z
  .array(SerialRuleSchema)
  .max(MAX_SERIAL_RULES)
  .superRefine((rules, ctx) => {
    const seen = new Map<string, number>();
    rules.forEach((rule, index) => {
      if (rule.kind === 'text' && rule.min_length > rule.max_length)
        ctx.addIssue({ code: 'custom', path: [index, 'max_length'], message: `max_length (${rule.max_length}) is below min_length (${rule.min_length}).` });
      const key = rule.sku_pattern.toUpperCase();
      const before = seen.get(key);
      if (before !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [index, 'sku_pattern'],
          message: `The pattern ${rule.sku_pattern} is already rule ${before + 1}: it could never apply.`,
        });
      else seen.set(key, index);
    });
  })
  .meta({ description: 'First match wins. A pattern given twice (without regard to case) is refused, and so are text bounds out of order.' });
