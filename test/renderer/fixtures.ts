import type { ReturnRecord } from '../../shared/api/returns.ts';

/** A return of three lines, as the API answers it. */
export function threeLineReturn(): ReturnRecord {
  const line = (id: number, sku: string, quantity: number, unreceived = quantity) => ({
    id,
    quantity,
    unreceived_quantity: unreceived,
    name: `Item ${sku}`,
    price: 10,
    currency: 'USD',
    merchant_sku: sku,
  });
  return {
    id: 7,
    account_id: 1,
    status: 'awaiting',
    email: 'ada@example.com',
    receive_by: '2026-12-01',
    total_price: 40,
    currency: 'USD',
    weight: 1,
    weight_unit: 'kg',
    reason_of_return: 'Too small',
    length: 1,
    width: 1,
    height: 1,
    dimension_unit: 'cm',
    return_line_items: [line(71, 'SKU-A', 1), line(72, 'sku-b', 2), line(73, 'SKU-C', 1)],
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };
}

export function keys(): () => string {
  let n = 0;
  return () => `k${n++}`;
}
