import type { ReturnPackageCreate } from '#shared/api/return-packages.ts';
import type { ManualReturnCreate } from '#shared/api/returns.ts';
import type { PackageStatus } from '#shared/package-status.ts';
import { runScript, type DomainContext } from '../domain/context.ts';
import { createLineItem } from '../domain/line-items.ts';
import { createOperator, pinHashOf } from '../domain/operators.ts';
import { createPackage, updatePackage } from '../domain/packages.ts';
import { createReturn } from '../domain/returns.ts';

export const DEMO_ACCOUNTS = [1001, 1002] as const;

/**
 * The demo's people: dock workers (the first receives the packages the demo shows as received; number
 * keys 1–3 sign them in) and a supervisor, whose badge and PIN open the settings, rules, printers,
 * tokens, upstream and workers.
 */
export const DEMO_OPERATORS = [
  { name: 'Sam Rivera', badge: 'BADGE-001', role: 'worker', key: 1 },
  { name: 'Alex Chen', badge: 'BADGE-002', role: 'worker', key: 2 },
  { name: 'Jordan Novak', badge: 'BADGE-003', role: 'worker', key: 3 },
  { name: 'Morgan Diaz', badge: 'SUPER-001', role: 'supervisor', key: 9, pin: '2468' },
] as const;

const CUSTOMERS = [
  'ana.silva',
  'ben.okafor',
  'chloe.martin',
  'dev.patel',
  'emma.schulz',
  'farid.haddad',
  'grace.lee',
  'hugo.rossi',
  'ines.garcia',
  'jonas.berg',
  'kim.tanaka',
  'lea.dubois',
];
const PRODUCTS = [
  { name: 'Merino crew sweater, M', sku: 'KN-MER-CRW-M', price: 89 },
  { name: 'Trail running shoe, EU 42', sku: 'FW-TRL-42', price: 129.5 },
  { name: 'Rain shell jacket, L', sku: 'OW-RSH-L', price: 149 },
  { name: 'Organic cotton tee, S', sku: 'TP-OCT-S', price: 24.9 },
  { name: 'Wool beanie', sku: 'AC-WBN-01', price: 19 },
  { name: 'Leather belt, 90 cm', sku: 'AC-LBT-90', price: 45 },
  { name: 'Insulated bottle, 750 ml', sku: 'HG-INB-750', price: 32 },
];
const REASONS = ['Too small', 'Arrived damaged', 'Changed my mind', 'Wrong colour delivered', 'Does not fit as expected', 'Defective zipper'];
/** One package per state, then a few more at the dock: what a station sees on a normal morning. */
const PACKAGE_STATES: PackageStatus[] = [
  'in_transit',
  'in_transit',
  'delivered',
  'pending',
  'received',
  'exception',
  'cancelled',
  'in_transit',
  'delivered',
  'in_transit',
  'received',
  'in_transit',
];

/**
 * Seeds an empty station with realistic demo data (`serve --demo`): two accounts, dock workers,
 * returns of one to three lines, and packages in every state. Tracking numbers follow real carrier
 * formats so that scanning them by hand works (e.g. `1ZDEMO0000000001`).
 */
export async function seedDemo(ctx: DomainContext): Promise<{ seeded: boolean }> {
  // From SQLite: the engine holds only the hot set (docs/decisions/store-hot-set.md).
  if (ctx.store.count('returns', {}) > 0) return { seeded: false };
  await runScript(ctx, async (t, now) => {
    for (const id of DEMO_ACCOUNTS) if (!(await t.accounts.get(id))) await t.accounts.put({ id, name: `Demo shop ${id}`, created_at: now });
  });
  for (const operator of DEMO_OPERATORS) {
    const pin = 'pin' in operator ? operator.pin : undefined;
    const input = { name: operator.name, badge_code: operator.badge, active: true, role: operator.role, sign_in_key: operator.key };
    await createOperator(ctx, input, await pinHashOf({ pin }));
  }
  for (let i = 0; i < CUSTOMERS.length; i++) await seedCustomer(ctx, i);
  return { seeded: true };
}

/**
 * What `serve --demo` prints after its address, so a first try needs nothing else: the badges to sign
 * in with, the supervisor's badge and PIN, and a tracking number to scan or type (customer 0's
 * package, on its way to the dock).
 */
export function demoGuide(): string[] {
  const workers = DEMO_OPERATORS.filter((operator) => operator.role === 'worker');
  const supervisors = DEMO_OPERATORS.filter((operator) => 'pin' in operator);
  return [
    `Demo badges to sign in with: ${workers.map(({ name, badge }) => `${badge} (${name})`).join(', ')}`,
    ...supervisors.map(({ name, badge, pin }) => `Demo supervisor: badge ${badge}, PIN ${pin} (${name})`),
    `A demo tracking number to scan or type: ${demoPackage(0, 0, demoReturn(0), 'in_transit').tracking_number}`,
  ];
}

/** The first demo operator receives the packages that the demo shows as received. */
const RECEIVING_OPERATOR_ID = 1;

/** Customer i's return and its one package, brought to the state the demo shows for it, in one write. */
async function seedCustomer(ctx: DomainContext, i: number): Promise<void> {
  const accountId = DEMO_ACCOUNTS[i % DEMO_ACCOUNTS.length] ?? 1001;
  const input = demoReturn(i);
  const status = PACKAGE_STATES[i % PACKAGE_STATES.length] ?? 'in_transit';
  await runScript(ctx, async (t, now) => {
    const ret = await createReturn(t, now, accountId, input);
    // A package is created in a state a carrier can report; received, exception and cancelled are reached by the updates below.
    const initial: ReturnPackageCreate['status'] =
      status === 'received' ? 'delivered' : status === 'exception' || status === 'cancelled' ? 'in_transit' : status;
    const pkg = await createPackage(t, now, accountId, demoPackage(i, ret.id, input, initial));
    if (status === 'received') {
      for (const line of ret.return_line_items) {
        await createLineItem(t, now, accountId, pkg.id, {
          return_line_item_id: line.id,
          quantity: line.quantity,
          condition: 'like_new',
          serial: null,
          defective: false,
          notes: null,
          barcode: null,
          tags: ['restock'],
        });
      }
      await updatePackage(t, now, accountId, pkg.id, { status: 'received', processor_id: RECEIVING_OPERATOR_ID });
    } else if (status === 'exception' || status === 'cancelled') {
      await updatePackage(t, now, accountId, pkg.id, { status, ...(status === 'exception' ? { notes: 'Carrier reports the label as unreadable.' } : {}) });
    }
  });
}

/** Customer i's return: one to three lines of the demo products, due in a week or more. */
function demoReturn(i: number): Omit<ManualReturnCreate, 'account_id'> {
  const lines = Array.from({ length: 1 + (i % 3) }, (_unused, index) => {
    const product = PRODUCTS[(i + index * 2) % PRODUCTS.length] ?? PRODUCTS[0];
    const quantity = 1 + ((i + index) % 2);
    return {
      quantity,
      unreceived_quantity: quantity,
      name: product?.name ?? '',
      price: product?.price ?? 1,
      currency: 'EUR' as const,
      merchant_sku: product?.sku ?? '',
    };
  });
  return {
    email: `${CUSTOMERS[i]}@example.com`,
    receive_by: new Date(Date.now() + (7 + i) * 86_400_000).toISOString().slice(0, 10),
    total_price: Math.round(lines.reduce((sum, line) => sum + line.price * line.quantity, 0) * 100) / 100,
    currency: 'EUR',
    weight: 400 + i * 120,
    weight_unit: 'g',
    reason_of_return: REASONS[i % REASONS.length] ?? 'Other',
    length: 35,
    width: 25,
    height: 8 + (i % 4) * 4,
    dimension_unit: 'cm',
    return_line_items: lines,
  };
}

/** Customer i's package: a UPS-, USPS- or plain-looking tracking number, arriving within four days. */
function demoPackage(i: number, returnId: number, input: Omit<ManualReturnCreate, 'account_id'>, status: ReturnPackageCreate['status']): ReturnPackageCreate {
  const trackingNumber =
    i % 3 === 0 ? `1ZDEMO${String(i + 1).padStart(10, '0')}` : i % 3 === 1 ? `9400${String(i + 1).padStart(18, '0')}` : `DEMO${String(i + 1).padStart(8, '0')}`;
  return {
    return_id: returnId,
    tracking_number: trackingNumber,
    estimated_arrival: new Date(Date.now() + (i % 4) * 86_400_000).toISOString(),
    shipping_method: i % 2 === 0 ? 'ground' : 'standard',
    weight: input.weight,
    weight_unit: 'g',
    width: input.width,
    height: input.height,
    length: input.length,
    dimension_unit: 'cm',
    shipping_label_cost: 6.9,
    shipping_label_cost_currency: 'EUR',
    carrier_id: 1 + (i % 3),
    location_id: 1,
    status,
  };
}
