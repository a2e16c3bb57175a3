// Child process for the kill test: concurrent writers on the store in argv[2]. Each acknowledged
// write prints "<id> <tracking number>" on stdout; the parent kills this process with SIGKILL.
import { openStore, trackingKey } from '../../electron/station/store/index.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

const dataDir = process.argv[2] ?? '';
const round = Number(process.argv[3] ?? 0);
const writers = Number(process.argv[4] ?? 16);
const store = await openStore({ dataDir });
process.stdout.write('ready\n');

let counter = 0;
async function writer(w: number): Promise<never> {
  for (;;) {
    const n = counter++;
    const tracking = `R${round}-W${w}-${n}`;
    const status = n % 7 === 0 ? 'cancelled' : 'in_transit';
    const id = await store.write(async () => {
      const now = new Date().toISOString();
      const packageId = await insidesOf(store).db.return_packages.add({
        account_id: 1 + (n % 2),
        return_id: 1,
        tracking_number: tracking,
        tracking_key: status === 'cancelled' ? null : trackingKey(tracking),
        status,
        estimated_arrival: null,
        actual_arrival: null,
        shipping_method: null,
        weight: null,
        weight_unit: null,
        length: null,
        width: null,
        height: null,
        dimension_unit: null,
        shipping_label_cost: null,
        shipping_label_cost_currency: null,
        carrier_id: null,
        location_id: null,
        processed_at: null,
        processor_id: null,
        notes: null,
        created_at: now,
        updated_at: now,
      });
      await insidesOf(store).db.package_line_items.add({
        account_id: 1,
        return_package_id: packageId,
        return_line_item_id: null,
        quantity: 1,
        merchant_sku: null,
        name: null,
        condition: 'good',
        defective: false,
        notes: null,
        barcode: null,
        tags: [],
        created_at: now,
        updated_at: now,
      });
      // An update and a delete in the mix, so a restart also replays those.
      if (n % 5 === 0 && packageId > 1) await insidesOf(store).db.return_packages.update(packageId - 1, { notes: `touched by ${n}` });
      return packageId;
    });
    process.stdout.write(`${id} ${tracking}\n`);
  }
}
for (let w = 0; w < writers; w++) void writer(w);
