import { z } from 'zod';
import { ISO_4217_CURRENCIES } from './currencies.ts';

/*
 * Primitives of the API (docs/api-reference.md, Values), shared by every request and response schema.
 *
 * Request schemas validate what a client sends (and normalise it, e.g. timestamps to UTC);
 * response schemas describe exactly what the station answers.
 */

export const INT32_MAX = 2_147_483_647;

/** The API's "integer (32-bit)": −2^31 … 2^31−1. */
export const Int32Schema = z.int32();
/** Weights, dimensions, unreceived quantities: 32-bit and ≥ 0. */
export const NonNegativeInt32Schema = z.int32().min(0);
/** `quantity` is ≥ 1. */
export const QuantitySchema = z.int32().min(1);
/** Ids assigned by the station: positive 32-bit integers. */
export const IdSchema = z.int32().min(1);

/** Largest amount accepted for a price or a cost, so that every value survives a float64 round trip in cents. */
export const MAX_AMOUNT = 1_000_000_000;
/** A price or cost (JSON number, finite, 0 … MAX_AMOUNT). */
export const AmountSchema = z.number().min(0).max(MAX_AMOUNT);
/** A decimal measurement of a package (weight, length …): finite, 0 … INT32_MAX. */
export const MeasureSchema = z.number().min(0).max(INT32_MAX);

// ---------------------------------------------------------------------------------------------
// Timestamps and dates

const TIMESTAMP_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** True when year/month/day name a real day of the proleptic Gregorian calendar. */
export function isRealCalendarDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * Parses an ISO 8601 / RFC 3339 date-time that carries an offset (`Z`, `+02:00` or `+0200`) and
 * returns it normalised to UTC as `YYYY-MM-DDTHH:MM:SS.mmmZ`; sub-millisecond digits are truncated.
 * Returns null for anything else: no offset, impossible dates or times (`2026-02-30`, `24:00`,
 * leap seconds), offsets beyond ±23:59, or results outside years 0000–9999.
 */
export function normaliseTimestamp(input: string): string | null {
  const m = TIMESTAMP_RE.exec(input);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!isRealCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  let offsetMinutes = 0;
  if (m[8] === undefined) {
    const offHours = Number(m[10]);
    const offMinutes = Number(m[11]);
    if (offHours > 23 || offMinutes > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (offHours * 60 + offMinutes);
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute - offsetMinutes, second, millis);
  const utcYear = date.getUTCFullYear();
  if (utcYear < 0 || utcYear > 9999) return null;
  return date.toISOString();
}

/** Request timestamp: ISO 8601 with a required offset; output is the UTC form `…T…:….mmmZ`. */
export const TimestampInputSchema = z
  .string()
  .max(40)
  .transform((value, ctx) => {
    const normalised = normaliseTimestamp(value);
    if (normalised === null) {
      ctx.addIssue({
        code: 'custom',
        message: 'Expected an ISO 8601 date-time with an offset or Z, e.g. 2026-11-21T10:15:30Z.',
      });
      return z.NEVER;
    }
    return normalised;
  })
  .meta({ format: 'date-time' });

/** Response timestamp: always UTC with milliseconds and `Z` (`2026-11-21T10:15:30.123Z`). */
export const TimestampSchema = z.iso.datetime({ precision: 3 });

/** A real calendar date written `YYYY-MM-DD` (`2026-02-30` is rejected). */
export const CalendarDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a calendar date written YYYY-MM-DD.')
  .refine((value) => {
    const [y, m, d] = value.split('-').map(Number) as [number, number, number];
    return isRealCalendarDate(y, m, d);
  }, 'Expected a real calendar date.')
  .meta({ format: 'date' });

// ---------------------------------------------------------------------------------------------
// Codes and units

const currencySet: ReadonlySet<string> = new Set(ISO_4217_CURRENCIES);
/** ISO 4217 code of a real, active currency, upper case (`EUR`, not `eur`). */
export const CurrencySchema = z.enum(ISO_4217_CURRENCIES, {
  error: (issue) =>
    issue.input === undefined
      ? undefined
      : typeof issue.input === 'string' && currencySet.has(issue.input.toUpperCase())
        ? 'Currency codes are upper case, e.g. EUR.'
        : 'Expected an ISO 4217 currency code, e.g. EUR or USD.',
});

export const WEIGHT_UNITS = ['g', 'kg', 'oz', 'lb'] as const;
export const WeightUnitSchema = z.enum(WEIGHT_UNITS);

export const DIMENSION_UNITS = ['mm', 'cm', 'in'] as const;
export const DimensionUnitSchema = z.enum(DIMENSION_UNITS);

// ---------------------------------------------------------------------------------------------
// Strings

/** Maximum lengths of free-text fields, in UTF-16 code units. */
export const MAX_LENGTH = {
  name: 255,
  email: 254,
  reason: 2000,
  notes: 4000,
  sku: 128,
  barcode: 128,
  tag: 40,
  trackingNumber: 64,
  badgeCode: 64,
  lookupCode: 128,
} as const;

/**
 * White space as JavaScript's `\s` and `String.prototype.trim` know it (ECMAScript's WhiteSpace and
 * LineTerminator), spelled out for a regular expression's character class: `\s` and `\S` mean other
 * things in other dialects (Python's take in U+001C–U+001F and U+0085 but not U+FEFF), and a pattern
 * of the document must read the same to every validator of it as to the station.
 */
export const WHITE_SPACE = String.raw`\t\n\v\f\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF`;

/** A pattern (unanchored) of a text with at least one character that is not white space. */
export const NOT_BLANK_PATTERN = `[^${WHITE_SPACE}]`;

/**
 * A rule of a text as the regular expression that checks it, with the `u` flag as JSON Schema
 * validators read a pattern (a character is a code point): zod puts its source into the document,
 * so the document's pattern is the check itself.
 */
export function textRule(pattern: string): RegExp {
  return new RegExp(pattern, 'u');
}

/** Free text of 1 … max characters that is not only white space. */
export function boundedText(max: number) {
  return z.string().min(1).max(max).regex(textRule(NOT_BLANK_PATTERN), 'Must not be blank.');
}

export const NameSchema = boundedText(MAX_LENGTH.name);
export const NotesSchema = z.string().max(MAX_LENGTH.notes);
export const ReasonSchema = boundedText(MAX_LENGTH.reason);
export const SkuSchema = boundedText(MAX_LENGTH.sku);
export const BarcodeSchema = boundedText(MAX_LENGTH.barcode);
export const EmailSchema = z.email({ error: (issue) => (issue.input === undefined ? undefined : 'Expected an email address.') }).max(MAX_LENGTH.email);

/**
 * Tracking number: 1–64 visible ASCII characters (no spaces, no control characters). Surrounding
 * white space is an error, not trimmed: the API stores exactly what it is given. (Scans are
 * normalised by `normaliseScan` in shared/barcode.ts before they reach the API.)
 */
export const TrackingNumberSchema = z
  .string()
  .min(1)
  .max(MAX_LENGTH.trackingNumber)
  .regex(/^[\x21-\x7E]+$/, 'Expected 1–64 visible characters without spaces.');

// ---------------------------------------------------------------------------------------------
// Path and query parameters (always strings on the wire)

/**
 * The source of a regular expression (anchored) matching exactly the decimal spellings — digits,
 * no sign, no leading zero — of the integers `min` … `max` (0 ≤ min ≤ max): what the OpenAPI
 * document shows for an integer the URL carries as text (`1` … `2147483647`, `1` … `250`).
 */
export function decimalRangePattern(min: number, max: number): string {
  const alternatives: string[] = [];
  const lo = String(min);
  const hi = String(max);
  // Lengths whose every number is in range (10…0 to 99…9) are one alternative: [1-9][0-9]{a,b}.
  let fullFrom = 0;
  const flushFull = (upTo: number) => {
    if (fullFrom === 0) return;
    const [a, b] = [fullFrom - 1, upTo - 1];
    alternatives.push(b === 0 ? '[1-9]' : `[1-9][0-9]${a === b ? (a === 1 ? '' : `{${a}}`) : `{${a},${b}}`}`);
    fullFrom = 0;
  };
  for (let digits = lo.length; digits <= hi.length; digits++) {
    const from = digits === lo.length ? lo : `1${'0'.repeat(digits - 1)}`;
    const to = digits === hi.length ? hi : '9'.repeat(digits);
    if (from === `1${'0'.repeat(digits - 1)}` && to === '9'.repeat(digits)) {
      fullFrom ||= digits;
      continue;
    }
    flushFull(digits - 1);
    alternatives.push(...sameLengthRange(from, to));
  }
  flushFull(hi.length);
  return `^(?:${alternatives.join('|')})$`;
}

/** Regular expressions (alternatives) for the digit strings from `lo` to `hi`, both of one length. */
function sameLengthRange(lo: string, hi: string): string[] {
  const n = lo.length;
  if (n === 0) return [''];
  const first = Number(lo[0]);
  const last = Number(hi[0]);
  if (first === last) return sameLengthRange(lo.slice(1), hi.slice(1)).map((rest) => `${first}${rest}`);
  const tail = n - 1;
  const any = tail === 0 ? '' : tail === 1 ? '[0-9]' : `[0-9]{${tail}}`;
  // A first digit whose tails are all in range joins the digits between.
  const lowWhole = /^0*$/.test(lo.slice(1));
  const highWhole = /^9*$/.test(hi.slice(1));
  const [from, to] = [lowWhole ? first : first + 1, highWhole ? last : last - 1];
  const out: string[] = [];
  if (!lowWhole) out.push(...sameLengthRange(lo.slice(1), '9'.repeat(tail)).map((rest) => `${first}${rest}`));
  if (from <= to) out.push(`${from === to ? from : `[${from}-${to}]`}${any}`);
  if (!highWhole) out.push(...sameLengthRange('0'.repeat(tail), hi.slice(1)).map((rest) => `${last}${rest}`));
  return out;
}

/**
 * Strict decimal form of a positive id: digits only, no sign, no leading zero, no exponent, no
 * white space, no fraction. `7` is accepted; `07`, `+7`, ` 7`, `7.0`, `1e1`, `0x7` are not (one
 * id has exactly one spelling, so caches and logs never see two names for one resource).
 */
const STRICT_ID_RE = /^[1-9][0-9]{0,9}$/;

export function parseStrictId(value: string): number | null {
  if (!STRICT_ID_RE.test(value)) return null;
  const n = Number(value);
  return n <= INT32_MAX ? n : null;
}

/** A positive int32 id given as a strict decimal string (path parameter or query filter). */
export const IdParamSchema = z
  .string()
  .transform((value, ctx) => {
    const id = parseStrictId(value);
    if (id === null) {
      ctx.addIssue({ code: 'custom', message: 'Expected a positive integer id written in decimal digits.' });
      return z.NEVER;
    }
    return id;
  })
  .meta({ type: 'string', pattern: decimalRangePattern(1, INT32_MAX) });

/** An integer query parameter within [min, max], strict decimal digits (no sign unless min < 0). */
export function queryIntSchema(min: number, max: number) {
  return z
    .string()
    .regex(/^(0|[1-9][0-9]{0,9})$/, 'Expected an integer written in decimal digits.')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .meta({ pattern: decimalRangePattern(min, max) });
}

/** An `Idempotency-Key` header: 1–255 visible ASCII characters (the document's pattern and the server's check). */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7E]{1,255}$';

export const PER_PAGE_DEFAULT = 25;
export const PER_PAGE_MAX = 250;

/** `page` (≥ 1, default 1) and `per_page` (1–250, default 25). */
export const PaginationQueryShape = {
  page: queryIntSchema(1, INT32_MAX).default(1).meta({ description: 'Page number, from 1 (default 1). A page past the end has empty data.' }),
  per_page: queryIntSchema(1, PER_PAGE_MAX)
    .default(PER_PAGE_DEFAULT)
    .meta({ description: `Items per page, 1–${PER_PAGE_MAX} (default ${PER_PAGE_DEFAULT}).` }),
};
export const PaginationQuerySchema = z.strictObject(PaginationQueryShape);
export type PaginationQuery = z.infer<typeof PaginationQuerySchema>;

/**
 * A comma-separated list query parameter (`status=pending,in_transit`), each element one of
 * `values`; duplicates are dropped, order kept.
 */
export function commaListSchema<const T extends readonly [string, ...string[]]>(values: T) {
  const element = z.enum(values);
  return z
    .string()
    .transform((value, ctx) => {
      const parts = value.split(',');
      const out: T[number][] = [];
      for (const part of parts) {
        const parsed = element.safeParse(part);
        if (!parsed.success) {
          ctx.addIssue({ code: 'custom', message: `Expected a comma-separated list of: ${values.join(', ')}.` });
          return z.NEVER;
        }
        if (!out.includes(parsed.data)) out.push(parsed.data);
      }
      return out;
    })
    .meta(commaListMeta(values));
}

/**
 * How the document shows a comma-separated list parameter: an array of the allowed values, at least
 * one, sent as `style: form, explode: false` (`status=pending,in_transit`; shared/api/openapi.ts
 * sets those two on every array parameter).
 */
export function commaListMeta(values: readonly string[]) {
  return {
    type: 'array',
    items: { type: 'string', enum: [...values] },
    minItems: 1,
    description: `Comma-separated list of: ${values.join(', ')}.`,
  } as const;
}

// ---------------------------------------------------------------------------------------------
// Lists

export const ListMetaSchema = z.object({
  current_page: z.int().min(1),
  total_pages: z.int().min(0),
  total_count: z.int().min(0),
  per_page: z.int().min(1).max(PER_PAGE_MAX),
  /** Station extension (docs/api-decisions.md, List search): a search most records match is counted within a budget. */
  total_count_lower_bound: z.literal(true).optional().meta({
    description:
      'Station extension, present only when true: a search by any part (`…_contains`) that most records match is counted among the first 1,000 records of the other filters, so at least `total_count` match (maybe many more) and `total_pages` counts only those; later pages are served all the same (page on until a page holds fewer than `per_page`, or reverse the sort for the last ones).',
  }),
});
export type ListMeta = z.infer<typeof ListMetaSchema>;

/** `{data: [...], meta}` around an item schema. */
export function listResponse<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: ListMetaSchema });
}
export interface ListResponse<T> {
  data: T[];
  meta: ListMeta;
}

/** Meta of a page: `total_pages = ceil(total_count / per_page)`; `lowerBound`: at least `totalCount` match. */
export function listMeta(page: number, perPage: number, totalCount: number, lowerBound = false): ListMeta {
  return {
    current_page: page,
    total_pages: Math.ceil(totalCount / perPage),
    total_count: totalCount,
    per_page: perPage,
    ...(lowerBound ? { total_count_lower_bound: true as const } : {}),
  };
}
