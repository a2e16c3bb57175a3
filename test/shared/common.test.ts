import { describe, expect, it } from 'vitest';
import {
  CalendarDateSchema,
  CurrencySchema,
  EmailSchema,
  IdParamSchema,
  INT32_MAX,
  Int32Schema,
  ISO_4217_CURRENCIES,
  PaginationQuerySchema,
  TimestampInputSchema,
  TimestampSchema,
  TrackingNumberSchema,
  listMeta,
  normaliseTimestamp,
  parseStrictId,
} from '../../shared/api/index.ts';

describe('timestamps', () => {
  it.each([
    ['2026-11-21T10:15:30Z', '2026-11-21T10:15:30.000Z'],
    ['2026-11-21T10:15:30.123Z', '2026-11-21T10:15:30.123Z'],
    ['2026-11-21T10:15:30.1+00:00', '2026-11-21T10:15:30.100Z'],
    ['2026-11-21T12:15:30+02:00', '2026-11-21T10:15:30.000Z'],
    ['2026-11-21T05:45:30.123456-0430', '2026-11-21T10:15:30.123Z'],
    ['2026-12-31T23:30:00-01:00', '2027-01-01T00:30:00.000Z'],
    ['2028-02-29T00:00:00+01:00', '2028-02-28T23:00:00.000Z'],
    ['2026-11-21t10:15:30z', '2026-11-21T10:15:30.000Z'],
  ])('normalises %s to %s', (input, expected) => {
    expect(normaliseTimestamp(input)).toBe(expected);
    expect(TimestampInputSchema.parse(input)).toBe(expected);
    expect(TimestampSchema.safeParse(expected).success).toBe(true);
  });

  it.each([
    '2026-11-21T10:15:30', // no offset
    '2026-11-21 10:15:30Z',
    '2026-11-21',
    '2026-02-30T10:00:00Z',
    '2026-02-29T10:00:00Z',
    '2026-11-21T24:00:00Z',
    '2026-11-21T10:60:00Z',
    '2026-11-21T10:15:60Z',
    '2026-11-21T10:15:30+24:00',
    '2026-11-21T10:15Z',
    '1700000000',
    '',
    'not a date',
  ])('rejects %j', (input) => {
    expect(normaliseTimestamp(input)).toBeNull();
    const result = TimestampInputSchema.safeParse(input);
    expect(result.success).toBe(false);
  });

  it('rejects non-strings', () => {
    expect(TimestampInputSchema.safeParse(1_700_000_000).success).toBe(false);
  });

  it('response timestamps must be UTC with milliseconds', () => {
    expect(TimestampSchema.safeParse('2026-11-21T10:15:30Z').success).toBe(false);
    expect(TimestampSchema.safeParse('2026-11-21T10:15:30.000+00:00').success).toBe(false);
  });
});

describe('calendar dates', () => {
  it.each(['2026-01-31', '2028-02-29', '2000-02-29', '2026-12-31'])('accepts %s', (d) => {
    expect(CalendarDateSchema.parse(d)).toBe(d);
  });
  it.each(['2026-02-30', '2026-02-29', '1900-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-1-01', '2026-01-01T00:00:00Z', '20260101'])(
    'rejects %s',
    (d) => {
      expect(CalendarDateSchema.safeParse(d).success).toBe(false);
    },
  );
});

describe('currency', () => {
  it.each(['EUR', 'USD', 'JPY', 'GBP', 'CHF', 'XCG'])('accepts %s', (c) => {
    expect(CurrencySchema.parse(c)).toBe(c);
  });
  it('rejects lower case with a hint to upper-case', () => {
    const r = CurrencySchema.safeParse('eur');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/upper case/);
  });
  it.each(['EU', 'EURO', 'ABC', 'XXX', 'XTS', 'HRK', 'ANG', '', 978])('rejects %j', (c) => {
    expect(CurrencySchema.safeParse(c).success).toBe(false);
  });
  it('lists unique three-letter upper-case codes', () => {
    expect(new Set(ISO_4217_CURRENCIES).size).toBe(ISO_4217_CURRENCIES.length);
    for (const code of ISO_4217_CURRENCIES) expect(code).toMatch(/^[A-Z]{3}$/);
  });
});

describe('int32', () => {
  it('accepts the bounds and rejects beyond them', () => {
    expect(Int32Schema.safeParse(INT32_MAX).success).toBe(true);
    expect(Int32Schema.safeParse(-(2 ** 31)).success).toBe(true);
    expect(Int32Schema.safeParse(2 ** 31).success).toBe(false);
    expect(Int32Schema.safeParse(-(2 ** 31) - 1).success).toBe(false);
    expect(Int32Schema.safeParse(1.5).success).toBe(false);
    expect(Int32Schema.safeParse('1').success).toBe(false);
  });
});

describe('id path parameters', () => {
  it.each([
    ['1', 1],
    ['7', 7],
    ['2147483647', INT32_MAX],
  ])('accepts %j', (input, expected) => {
    expect(parseStrictId(input)).toBe(expected);
    expect(IdParamSchema.parse(input)).toBe(expected);
  });
  it.each(['0', '07', '+7', '-7', ' 7', '7 ', '%207', '7.0', '1e1', '0x7', '', '2147483648', '99999999999', '７'])('rejects %j', (input) => {
    expect(parseStrictId(input)).toBeNull();
    expect(IdParamSchema.safeParse(input).success).toBe(false);
  });
});

describe('pagination', () => {
  it('defaults to page 1 of 25', () => {
    expect(PaginationQuerySchema.parse({})).toEqual({ page: 1, per_page: 25 });
  });
  it('parses strict decimal strings', () => {
    expect(PaginationQuerySchema.parse({ page: '3', per_page: '250' })).toEqual({ page: 3, per_page: 250 });
  });
  it.each([{ page: '0' }, { page: '-1' }, { page: '1.5' }, { page: '1e1' }, { per_page: '251' }, { per_page: '0' }, { page: ['1', '2'] }, { limit: '5' }])(
    'rejects %j',
    (query) => {
      expect(PaginationQuerySchema.safeParse(query).success).toBe(false);
    },
  );
  it('computes total_pages = ceil(total_count / per_page)', () => {
    for (const [count, per, pages] of [
      [0, 25, 0],
      [1, 25, 1],
      [25, 25, 1],
      [26, 25, 2],
      [251, 250, 2],
    ] as const) {
      expect(listMeta(1, per, count).total_pages).toBe(pages);
    }
  });
});

describe('strings', () => {
  it('tracking numbers are 1–64 visible characters', () => {
    expect(TrackingNumberSchema.safeParse('1Z999AA10123456784').success).toBe(true);
    expect(TrackingNumberSchema.safeParse('x'.repeat(64)).success).toBe(true);
    for (const bad of ['', 'x'.repeat(65), '1Z 999', ' 1Z999', '1Z999\n', 'ÄBC']) {
      expect(TrackingNumberSchema.safeParse(bad).success).toBe(false);
    }
  });
  it('email is a real address of at most 254 characters', () => {
    expect(EmailSchema.safeParse('jane.doe@example.com').success).toBe(true);
    expect(EmailSchema.safeParse('not-an-email').success).toBe(false);
    expect(EmailSchema.safeParse(`${'a'.repeat(64)}@${'b'.repeat(186)}.com`).success).toBe(false);
  });
});
