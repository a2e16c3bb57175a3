import type { ManualReturnCreateInput, ReturnRecord } from '../../shared/api/returns.ts';

/*
 * The one manual return of the tests: a parcel-sized return with plausible values. Tests that care
 * about a field override it; everything else stays the same everywhere.
 */

type ReturnLine = ManualReturnCreateInput['return_line_items'][number];

/** A return line of `quantity` units, none received yet. */
export function returnLine(merchantSku: string, quantity = 1, overrides: Partial<ReturnLine> = {}): ReturnLine {
  return { quantity, unreceived_quantity: quantity, name: `Item ${merchantSku}`, price: 20, currency: 'EUR', merchant_sku: merchantSku, ...overrides };
}

/** The fields a return has besides its lines, ids, status and times. */
const RETURN_FIELDS = {
  email: 'jane.doe@example.com',
  receive_by: '2026-12-01',
  total_price: 59.9,
  currency: 'EUR',
  weight: 800,
  weight_unit: 'g',
  reason_of_return: 'Too small',
  length: 30,
  width: 20,
  height: 10,
  dimension_unit: 'cm',
} as const;

/** A `POST /returns` body (every field is required). */
export function manualReturnBody(overrides: Partial<ManualReturnCreateInput> = {}): ManualReturnCreateInput {
  return {
    ...RETURN_FIELDS,
    return_line_items: [returnLine('TS-RED-M', 2, { name: 'T-shirt', price: 19.95 }), returnLine('JN-32', 1, { name: 'Jeans' })],
    ...overrides,
  };
}

/** A return as the API answers it, for tests that need one without a station. */
export function manualReturnRecord(overrides: Partial<ReturnRecord> = {}): ReturnRecord {
  return {
    ...RETURN_FIELDS,
    id: 3,
    account_id: 1,
    status: 'awaiting',
    return_line_items: [{ id: 11, ...returnLine('SH-1', 1, { name: 'Shirt' }) }],
    created_at: '2026-11-21T10:15:30.123Z',
    updated_at: '2026-11-21T10:15:30.123Z',
    ...overrides,
  };
}
