import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReturnPackageCreateSchema, ReturnPackageListResponseSchema } from '#shared/api/return-packages.ts';
import { ManualReturnCreateSchema, ReturnListResponseSchema } from '#shared/api/returns.ts';
import { createPackage as createPackageRecord } from '../../electron/station/domain/packages.ts';
import { createReturn as createReturnRecord } from '../../electron/station/domain/returns.ts';
import { COUNT_BUDGET } from '../../electron/station/store/list-queries.ts';
import { manualReturnBody, returnLine } from '../support/manual-return.ts';
import { call, createPackage, createReturn, startStation, type TestStation } from './support.ts';

/*
 * Search by any part (docs/api-decisions.md, List search): `tracking_number_contains` on the package
 * lists, `email_contains` and `sku_contains` on the returns lists, case-insensitive, from the trigram
 * index for 3 or more characters and as a start for 1–2, with counts that agree with the pages.
 */

let s: TestStation;
const tag = Date.now().toString(36).toUpperCase();

beforeAll(async () => {
  s = await startStation();
  for (const sku of ['AC-WBN-01', 'ac-wbx-02', 'QWB-77']) {
    await createReturn(s.origin, s.account1, { email: `sku-${sku.toLowerCase()}-${tag}@example.com`, return_line_items: [returnLine(sku, 1)] });
  }
  for (const email of [`Chloe.Martin-${tag}@Example.com`, `anne.martinez-${tag}@example.com`, `bob-${tag}@example.org`])
    await createReturn(s.origin, s.account1, { email });
  await createReturn(s.origin, s.account2, { email: `martin.other-${tag}@example.com`, return_line_items: [returnLine('ZZ-WBN-09', 1)] });
  const ret = await createReturn(s.origin, s.account1);
  for (const tracking of [`1Z${tag}DEMO0001`, `1Z${tag}demo0002`, `94${tag}XYZ0003`])
    await createPackage(s.origin, s.account1, 1, ret.id, { tracking_number: tracking });
  const other = await createReturn(s.origin, s.account2);
  await createPackage(s.origin, s.account2, 2, other.id, { tracking_number: `1Z${tag}DEMO0009` });
});
afterAll(async () => {
  await s.close();
});

async function returnsOf(query: string, token = s.account1) {
  const response = await call(s.origin, 'GET', `/returns?${query}`, { token });
  expect(response.status, response.text).toBe(200);
  return ReturnListResponseSchema.parse(response.json);
}
async function packagesOf(query: string) {
  const response = await call(s.origin, 'GET', `/api/v1/station/return_packages?${query}`, { token: s.stationToken });
  expect(response.status, response.text).toBe(200);
  return ReturnPackageListResponseSchema.parse(response.json);
}
const skusOf = (page: Awaited<ReturnType<typeof returnsOf>>) => page.data.flatMap((r) => r.return_line_items.map((l) => l.merchant_sku)).sort();

describe('sku_contains', () => {
  it('"wbn" finds the return with AC-WBN-01 in the token\'s account, and nothing else', async () => {
    const page = await returnsOf('sku_contains=wbn');
    expect(skusOf(page)).toEqual(['AC-WBN-01']);
    expect(page.meta.total_count).toBe(1);
    expect(skusOf(await returnsOf('sku_contains=WBN-0', s.account2))).toEqual(['ZZ-WBN-09']);
    expect(skusOf(await returnsOf('sku_contains=wbq'))).toEqual([]);
  });

  it('a 2-character text finds SKUs that start with it, not those that merely contain it', async () => {
    expect(skusOf(await returnsOf('sku_contains=ac&per_page=250'))).toEqual(['AC-WBN-01', 'ac-wbx-02']);
    // "wb" is inside all three SKUs but starts none of them.
    expect(skusOf(await returnsOf('sku_contains=wb'))).toEqual([]);
  });
});

describe('email_contains', () => {
  it('finds any part of an email, whatever the case, and pages agree with the count', async () => {
    const emails = async (query: string) => (await returnsOf(query)).data.map((r) => r.email).sort();
    expect(await emails(`email_contains=MARTIN`)).toEqual([`Chloe.Martin-${tag}@Example.com`, `anne.martinez-${tag}@example.com`].sort());
    expect(await emails(`email_contains=${encodeURIComponent(`martin-${tag}@ex`)}`)).toEqual([`Chloe.Martin-${tag}@Example.com`]);
    expect(await emails(`email_contains=${encodeURIComponent('.org')}`)).toEqual([`bob-${tag}@example.org`]);
    const first = await returnsOf('email_contains=martin&per_page=1&page=1');
    const second = await returnsOf('email_contains=martin&per_page=1&page=2');
    expect(first.meta).toMatchObject({ total_count: 2, total_pages: 2 });
    expect(new Set([...first.data, ...second.data].map((r) => r.id)).size).toBe(2);
  });

  it('takes the text literally: quotes and FTS syntax are not operators', async () => {
    for (const text of ['"martin"', 'martin OR bob', 'mar*', 'NEAR(a b)', '%art%'])
      expect((await returnsOf(`email_contains=${encodeURIComponent(text)}`)).data, text).toEqual([]);
  });

  it('refuses an empty or overlong text clearly and lists nothing', async () => {
    for (const [name, bad] of [
      ['email_contains', ''],
      ['email_contains', '%20%20'],
      ['email_contains', 'x'.repeat(255)],
      ['sku_contains', 'x'.repeat(129)],
    ] as const) {
      const refused = await call(s.origin, 'GET', `/returns?${name}=${bad}`, { token: s.account1 });
      expect(refused.status, bad).toBe(400);
      expect(refused.json, refused.text).toMatchObject({ error_code: 'INVALID_QUERY', details: { fields: [{ path: name }] } });
    }
  });
});

describe('tracking_number_contains', () => {
  it('finds the middle of a tracking number, whatever the case, with other filters, counts agreeing with pages', async () => {
    const tracking = async (query: string) => (await packagesOf(query)).data.map((p) => p.tracking_number).sort();
    expect(await tracking(`tracking_number_contains=${tag}demo000&account_id=1`)).toEqual([`1Z${tag}DEMO0001`, `1Z${tag}demo0002`].sort());
    expect(await tracking(`tracking_number_contains=xyz0`)).toEqual([`94${tag}XYZ0003`]);
    expect(await tracking(`tracking_number_contains=${tag}demo000&account_id=1&status=delivered`)).toEqual([]);
    const all = await packagesOf(`tracking_number_contains=${tag}demo&sort=id&per_page=1`);
    expect(all.meta).toMatchObject({ total_count: 3, total_pages: 3 });
    const pages = await Promise.all([1, 2, 3].map((page) => packagesOf(`tracking_number_contains=${tag}demo&sort=id&per_page=1&page=${page}`)));
    expect(pages.flatMap((p) => p.data.map((r) => r.tracking_number)).sort()).toEqual([`1Z${tag}DEMO0001`, `1Z${tag}demo0002`, `1Z${tag}DEMO0009`].sort());
    // The account route keeps to the token's account.
    const mine = await call(s.origin, 'GET', `/api/v1/accounts/1/return_packages?tracking_number_contains=DEMO0009`, { token: s.account1 });
    expect(ReturnPackageListResponseSchema.parse(mine.json).data).toEqual([]);
  });

  it('a 2-character text is a start: "1z" finds the UPS numbers, "yz" nothing', async () => {
    expect((await packagesOf(`tracking_number_contains=1z&account_id=1`)).meta.total_count).toBe(2);
    expect((await packagesOf(`tracking_number_contains=yz`)).data).toEqual([]);
  });
});

/*
 * A text found in many records is read in the list's own order, each row checked, and counted within
 * a budget of rows (store/list-queries.ts, COUNT_BUDGET): every page must still be
 * the page a plain filter of the same rows gives, in every sort, with status and account filters, to
 * the last page.
 */
describe('a text most records contain', () => {
  const BULK = 3_000;
  let b: TestStation;
  /** What was written: each package's id, account, status, tracking number and creation time. */
  const made: Array<{ id: number; account_id: number; status: string; tracking_number: string; created_at: string }> = [];
  const returnsMade: Array<{ id: number; account_id: number; email: string; created_at: string }> = [];

  beforeAll(async () => {
    b = await startStation();
    const { store } = b.station.ctx;
    const base = Date.parse('2026-11-01T00:00:00.000Z');
    // Creation times out of id order (a prime stride), so a sort by time is not a sort by id.
    const at = (i: number) => new Date(base + ((i * 7919) % BULK) * 1000).toISOString();
    const statuses = ['in_transit', 'delivered', 'pending', 'received'] as const;
    for (let from = 0; from < BULK; from += 1_000) {
      await store.write(async (t) => {
        for (let i = from; i < from + 1_000; i++) {
          const account = 1 + (i % 2);
          const email = `bulk.${i}@broad-${tag}.example`;
          const ret = await createReturnRecord(
            t,
            at(i),
            account,
            ManualReturnCreateSchema.parse(manualReturnBody({ email, return_line_items: [returnLine(`BK-${i}`, 1)] })),
          );
          returnsMade.push({ id: ret.id, account_id: account, email, created_at: ret.created_at });
          // Statuses unevenly spread: one in 7 received, the rest in thirds.
          const status = statuses[i % 7 === 0 ? 3 : i % 3] ?? 'in_transit';
          const tracking_number = `1Z${tag}BULK${String(i).padStart(5, '0')}`;
          const pkg = await createPackageRecord(t, at(i), account, ReturnPackageCreateSchema.parse({ return_id: ret.id, tracking_number, status }));
          made.push({ id: pkg.id, account_id: account, status, tracking_number, created_at: pkg.created_at });
        }
      });
    }
  }, 120_000);
  afterAll(async () => {
    await b.close();
  });

  const listed = async (query: string) => {
    const response = await call(b.origin, 'GET', `/api/v1/station/return_packages?${query}`, { token: b.stationToken });
    expect(response.status, response.text).toBe(200);
    return ReturnPackageListResponseSchema.parse(response.json);
  };
  const byTime = (a: { created_at: string; id: number }, z: { created_at: string; id: number }) => a.created_at.localeCompare(z.created_at) || a.id - z.id;
  const SORTS = {
    created_at: byTime,
    '-created_at': (a: (typeof made)[number], z: (typeof made)[number]) => byTime(z, a),
    id: (a: (typeof made)[number], z: (typeof made)[number]) => a.id - z.id,
    '-id': (a: (typeof made)[number], z: (typeof made)[number]) => z.id - a.id,
  };

  it('pages 1, 2, 3, a middle one, the last and the one after agree with a plain filter, in every sort and with filters', async () => {
    const cases: Array<{ query: string; keep: (p: (typeof made)[number]) => boolean }> = [
      { query: '', keep: () => true },
      { query: '&account_id=2', keep: (p) => p.account_id === 2 },
      { query: '&status=delivered,pending', keep: (p) => p.status === 'delivered' || p.status === 'pending' },
      { query: '&status=received&account_id=1', keep: (p) => p.status === 'received' && p.account_id === 1 },
      { query: '&status=received', keep: (p) => p.status === 'received' },
      { query: '&status=in_transit,received', keep: (p) => p.status === 'in_transit' || p.status === 'received' },
    ];
    // Every package, and the first 1,000 (as many as make a text broad): a third of the rows; and no text.
    for (const text of [`${tag}bulk`, `${tag}BULK00`, '']) {
      for (const { query, keep } of cases) {
        for (const [sort, compare] of Object.entries(SORTS)) {
          const expected = made
            .filter((p) => keep(p) && p.tracking_number.toLowerCase().includes(text.toLowerCase()))
            .sort(compare)
            .map((p) => p.tracking_number);
          const per = 100;
          const last = Math.ceil(expected.length / per);
          for (const page of new Set([1, 2, 3, Math.ceil(last / 2), last, last + 1])) {
            const got = await listed(`${text ? `tracking_number_contains=${text}&` : ''}sort=${sort}&per_page=${per}&page=${page}${query}`);
            expect(
              got.data.map((p) => p.tracking_number),
              `${text} ${query} ${sort} page ${page}`,
            ).toEqual(expected.slice((page - 1) * per, page * per));
            // A count is exact, or a lower bound that says so.
            if (got.meta.total_count_lower_bound) expect(got.meta.total_count).toBeLessThanOrEqual(expected.length);
            else expect(got.meta.total_count, `${text} ${query} ${sort}`).toBe(expected.length);
          }
        }
      }
    }
  });

  it('counts within a budget of rows and says so; a count within it is exact and not flagged', async () => {
    const all = await listed(`tracking_number_contains=${tag}bulk&account_id=1&per_page=25`);
    // Every row matches: the budget's rows, and one more that shows more rows are left.
    expect(all.meta).toEqual({
      current_page: 1,
      per_page: 25,
      total_count: COUNT_BUDGET + 1,
      total_pages: Math.ceil((COUNT_BUDGET + 1) / 25),
      total_count_lower_bound: true,
    });
    // Pages after total_pages are served.
    const beyond = await listed(`tracking_number_contains=${tag}bulk&account_id=1&per_page=25&page=${all.meta.total_pages + 10}`);
    expect(beyond.data).toHaveLength(25);
    expect(beyond.meta.total_count).toBeGreaterThanOrEqual((all.meta.total_pages + 10) * 25);
    // Few of the broad text's rows are received in account 1 (one in 14): within the budget, counted exactly.
    const few = made.filter((p) => p.status === 'received' && p.account_id === 1).length;
    expect(few).toBeLessThan(COUNT_BUDGET);
    const received = await listed(`tracking_number_contains=${tag}bulk&status=received&account_id=1&per_page=25`);
    expect(received.meta).toEqual({ current_page: 1, per_page: 25, total_count: few, total_pages: Math.ceil(few / 25) });
    // A selective text among them: its match set, counted exactly.
    const ten = await listed(`tracking_number_contains=${tag}bulk0012`);
    expect(ten.meta).toEqual({ current_page: 1, per_page: 25, total_count: 10, total_pages: 1 });
    // Every account's list walks its own order too (indexes without the account), in each sort and with statuses.
    for (const query of ['', '&sort=created_at', '&sort=-updated_at', '&status=in_transit,received']) {
      const every = await listed(`tracking_number_contains=${tag}bulk&per_page=25${query}`);
      expect(every.meta, query).toEqual({
        current_page: 1,
        per_page: 25,
        total_count: COUNT_BUDGET + 1,
        total_pages: Math.ceil((COUNT_BUDGET + 1) / 25),
        total_count_lower_bound: true,
      });
    }
  });

  it('a return list of a broad email or SKU text pages like a plain filter, newest first', async () => {
    const expected = returnsMade
      .filter((r) => r.account_id === 1)
      .sort((a, z) => byTime(z, a))
      .map((r) => r.email);
    for (const search of [`email_contains=${encodeURIComponent(`@broad-${tag}`)}`, 'sku_contains=bk-']) {
      for (const page of [1, 2, 15, 16]) {
        const response = await call(b.origin, 'GET', `/returns?${search}&per_page=100&page=${page}`, { token: b.account1 });
        expect(response.status, response.text).toBe(200);
        const got = ReturnListResponseSchema.parse(response.json);
        expect(
          got.data.map((r) => r.email),
          `${search} page ${page}`,
        ).toEqual(expected.slice((page - 1) * 100, page * 100));
        if (page === 1) expect(got.meta.total_count_lower_bound).toBe(true);
      }
    }
  });

  it('the returns list of every account (a station token) pages a broad email or SKU text like a plain filter, with statuses', async () => {
    const newest = [...returnsMade].sort((a, z) => byTime(z, a)).map((r) => r.email);
    for (const search of [`email_contains=${encodeURIComponent(`@broad-${tag}`)}`, 'sku_contains=bk-', `email_contains=${encodeURIComponent(`bulk.12`)}`]) {
      const text = search.startsWith('sku') ? null : decodeURIComponent(search.split('=')[1] ?? '');
      const expected = text === null ? newest : newest.filter((email) => email.includes(text));
      const last = Math.ceil(expected.length / 100);
      for (const page of new Set([1, 2, 3, Math.ceil(last / 2), last, last + 1])) {
        const response = await call(b.origin, 'GET', `/returns?${search}&per_page=100&page=${page}`, { token: b.stationToken });
        expect(response.status, response.text).toBe(200);
        const got = ReturnListResponseSchema.parse(response.json);
        expect(
          got.data.map((r) => r.email),
          `${search} page ${page}`,
        ).toEqual(expected.slice((page - 1) * 100, page * 100));
        if (got.meta.total_count_lower_bound) expect(got.meta.total_count).toBeLessThanOrEqual(expected.length);
        else expect(got.meta.total_count, search).toBe(expected.length);
      }
    }
    // Every return made here is awaiting: a status that none has lists nothing, one that all have lists all.
    const none = await call(b.origin, 'GET', `/returns?email_contains=${encodeURIComponent(`@broad-${tag}`)}&status=received`, { token: b.stationToken });
    expect(ReturnListResponseSchema.parse(none.json).meta.total_count).toBe(0);
  });

  it('a write is seen by the next search: the count and pages are found again', async () => {
    const { store, clock } = b.station.ctx;
    const first = made[0];
    if (!first) throw new Error('no package made');
    const before = await listed(`tracking_number_contains=${tag}bulk&sort=id&per_page=1&page=1`);
    expect(before.data[0]?.tracking_number).toBe(first.tracking_number);
    await store.write(async (t) => {
      const pkg = await t.return_packages.get(first.id);
      if (pkg)
        await t.return_packages.put({ ...pkg, tracking_number: `1Z${tag}GONE00000`, tracking_key: `1z${tag}gone00000`.toLowerCase(), updated_at: clock.now() });
    });
    const after = await listed(`tracking_number_contains=${tag}bulk&sort=id&per_page=1&page=1`);
    expect(after.data[0]?.tracking_number).toBe(made[1]?.tracking_number);
  });
});
