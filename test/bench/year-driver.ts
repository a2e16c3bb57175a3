// The year bench's dock (test/bench/year-bench.ts): a child process that works parcels through the
// station's API when told, so the station's process holds the station only (its RSS is what is
// measured) and the clients' work runs beside it, not on its event loop.
import { ApiClient } from '../../shared/api/client.ts';
import { manualReturnBody, returnLine } from '../support/manual-return.ts';

/** What the bench sends: where the station is, then ranges of parcel numbers to work. */
export type DriverMessage = { origin: string; token: string; accounts: number[]; workers: number } | { from: number; to: number };
/** What the driver answers: a range is done, or it failed. */
export type DriverReply = { done: number } | { error: string };

let api: ApiClient | undefined;
let accounts: number[] = [1];
let workers = 16;

/**
 * One parcel's life at the dock: its return, the package delivered, scanned at the dock (the lookup
 * and the package view a scan opens), one item inspected, received.
 */
async function workParcel(client: ApiClient, n: number): Promise<void> {
  const accountId = accounts[n % accounts.length] ?? 1;
  const sku = `YR-${n % 5000}`;
  const tracking = `YEAR${String(n).padStart(8, '0')}`;
  const ret = await client.createReturn(manualReturnBody({ account_id: accountId, email: `year.${n}@example.com`, return_line_items: [returnLine(sku, 1)] }));
  const pkg = await client.createPackage(accountId, { return_id: ret.id, tracking_number: tracking, status: 'delivered' });
  await client.lookup(tracking);
  await client.getPackage(accountId, pkg.id);
  await client.createLineItem(accountId, pkg.id, { return_line_item_id: ret.return_line_items[0]?.id ?? null, quantity: 1, condition: 'like_new' });
  await client.updatePackage(accountId, pkg.id, { status: 'received' });
}

async function work(from: number, to: number): Promise<void> {
  const client = api;
  if (!client) throw new Error('the driver was not told where the station is');
  let next = from;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < to) await workParcel(client, next++);
    }),
  );
}

process.on('message', (message: DriverMessage) => {
  if ('origin' in message) {
    api = new ApiClient({ baseUrl: message.origin, token: message.token });
    accounts = message.accounts;
    workers = message.workers;
    return;
  }
  work(message.from, message.to).then(
    () => process.send?.({ done: message.to } satisfies DriverReply),
    (error: unknown) => process.send?.({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies DriverReply),
  );
});
process.on('disconnect', () => process.exit(0));
