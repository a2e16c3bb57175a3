import { type Carrier, type Location, type StationStore } from '../store/index.ts';

/** What a new station knows about carriers and its own locations until someone configures it. */
const DEFAULT_CARRIERS: Array<Omit<Carrier, 'id'>> = [
  { code: 'ups', name: 'UPS', service: 'Ground' },
  { code: 'fedex', name: 'FedEx', service: 'Ground' },
  { code: 'usps', name: 'USPS', service: 'Ground Advantage' },
  { code: 'dhl', name: 'DHL', service: 'Express' },
  { code: 'dpd', name: 'DPD', service: 'Classic' },
  { code: 'other', name: 'Other carrier', service: 'Standard' },
];
const DEFAULT_LOCATIONS: Array<Omit<Location, 'id'>> = [
  { code: 'returns-dock', name: 'Returns dock', fulfillment_center_id: 1 },
  { code: 'quarantine', name: 'Quarantine shelf', fulfillment_center_id: 1 },
  { code: 'refurbish', name: 'Refurbishment bench', fulfillment_center_id: 1 },
];

/** Seeds carriers and locations once, on a station that has none. */
export async function seedCatalog(store: StationStore): Promise<void> {
  await store.write(async (t) => {
    if ((await t.carriers.count()) === 0) await t.carriers.bulkAdd(DEFAULT_CARRIERS as Carrier[]);
    if ((await t.locations.count()) === 0) await t.locations.bulkAdd(DEFAULT_LOCATIONS as Location[]);
  });
}
