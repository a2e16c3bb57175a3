import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReturnPackageListResponseSchema } from '#shared/api/return-packages.ts';
import { ReturnListResponseSchema } from '#shared/api/returns.ts';
import { returnLine } from '../support/manual-return.ts';
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
  for (const email of [`Chloe.Martin-${tag}@Example.com`, `anne.martinez-${tag}@example.com`, `bob-${tag}@example.org`]) await createReturn(s.origin, s.account1, { email });
  await createReturn(s.origin, s.account2, { email: `martin.other-${tag}@example.com`, return_line_items: [returnLine('ZZ-WBN-09', 1)] });
  const ret = await createReturn(s.origin, s.account1);
  for (const tracking of [`1Z${tag}DEMO0001`, `1Z${tag}demo0002`, `94${tag}XYZ0003`]) await createPackage(s.origin, s.account1, 1, ret.id, { tracking_number: tracking });
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
    for (const text of ['"martin"', 'martin OR bob', 'mar*', 'NEAR(a b)', '%art%']) expect((await returnsOf(`email_contains=${encodeURIComponent(text)}`)).data, text).toEqual([]);
  });

  it('refuses an empty or overlong text clearly and lists nothing', async () => {
    for (const [name, bad] of [['email_contains', ''], ['email_contains', '%20%20'], ['email_contains', 'x'.repeat(255)], ['sku_contains', 'x'.repeat(129)]] as const) {
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
