import type { ReturnPackage } from '../../shared/api/index.ts';

export const NOW = '2026-11-21T10:15:30.123Z';

export function samplePackage(overrides: Partial<ReturnPackage> = {}): ReturnPackage {
  return {
    id: 7,
    return_id: 3,
    tracking_number: '1Z999AA10123456784',
    status: 'in_transit',
    estimated_arrival: null,
    actual_arrival: null,
    shipping_method: 'ground',
    weight: 1.5,
    weight_unit: 'kg',
    dimensions: { length: 30, width: 20, height: 10, dimension_unit: 'cm' },
    shipping_label_cost: null,
    shipping_label_cost_currency: null,
    carrier_id: 1,
    carrier: { id: 1, name: 'UPS', code: 'ups' },
    location_id: null,
    fulfillment_center_id: null,
    line_items: [],
    media_files: [],
    processed_at: null,
    processor_id: null,
    weighing: {
      measured_weight: null,
      measured_weight_unit: null,
      weight_source: null,
      weight_scale: null,
      weighed_at: null,
      weighed_by: null,
      expected_weight: null,
      expected_weight_from: null,
      weight_verdict: null,
    },
    created_at: NOW,
    updated_at: NOW,
    ...overrides,
  };
}
