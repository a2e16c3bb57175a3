import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReturnPackageListResponseSchema, StationPackageListResponseSchema } from '#shared/api/return-packages.ts';
import { ReturnListResponseSchema } from '#shared/api/returns.ts';
import { returnLine } from '../support/manual-return.ts';
import { call, createPackage, createReturn, startStation, type TestStation } from './support.ts';

/*
 * List search by prefix (docs/api-decisions.md, List search): `email_prefix` on the returns lists and
 * `tracking_number_prefix` on the package list, case-insensitive, within the token's account, taken
 * literally (no wildcards), combined with the other filters and paged like any list.
 */

let s: TestStation;
const tag = Date.now().toString(36);

beforeAll(async () => {
  s = await startStation();
  for (const email of [`chloe.martin-${tag}@example.com`, `Chloe.Bernard-${tag}@example.com`, `bob-${tag}@example.com`, `chl_x${tag}@example.com`])
    await createReturn(s.origin, s.account1, { email });
  await createReturn(s.origin, s.account2, { email: `chloe.other-${tag}@example.com` });
  const ret = await createReturn(s.origin, s.account1);
  for (const tracking of [`1ZAB${tag}01`, `1zab${tag}02`, `1ZCD${tag}03`]) await createPackage(s.origin, s.account1, 1, ret.id, { tracking_number: tracking });
  for (const sku of [`WBN-${tag}-01`, `wbn-${tag}-02`, `LBT-${tag}-90`]) {
    await createReturn(s.origin, s.account1, { email: `sku-${sku.toLowerCase()}@example.com`, return_line_items: [returnLine(sku, 1)] });
  }
  const other = await createReturn(s.origin, s.account2);
  await createPackage(s.origin, s.account2, 2, other.id, { tracking_number: `1ZEF${tag}04` });
});
afterAll(async () => {
  await s.close();
});

async function returnsOf(query: string, token = s.account1) {
  const response = await call(s.origin, 'GET', `/returns?${query}`, { token });
  expect(response.status, response.text).toBe(200);
  return ReturnListResponseSchema.parse(response.json);
}

describe('email_prefix', () => {
  it('finds every email of the account that starts with it, whatever the case', async () => {
    const page = await returnsOf(`email_prefix=${encodeURIComponent('CHLOE.')}`);
    expect(page.data.map((r) => r.email).sort()).toEqual([`Chloe.Bernard-${tag}@example.com`, `chloe.martin-${tag}@example.com`].sort());
    expect(page.meta.total_count).toBe(2);
    // "chloe" alone: the two Chloes; not the other account's.
    expect((await returnsOf('email_prefix=chloe')).data.every((r) => r.email.toLowerCase().startsWith('chloe') && r.account_id === 1)).toBe(true);
    expect((await returnsOf(`email_prefix=chloe.other-${tag}`)).data).toEqual([]);
    expect((await returnsOf(`email_prefix=chloe.other-${tag}`, s.account2)).data).toHaveLength(1);
  });

  it('takes the text literally (% and _ are not wildcards) and pages the matches', async () => {
    expect((await returnsOf(`email_prefix=${encodeURIComponent('chl_')}`)).data.map((r) => r.email)).toEqual([`chl_x${tag}@example.com`]);
    expect((await returnsOf(`email_prefix=${encodeURIComponent('c%')}`)).data).toEqual([]);
    expect((await returnsOf(`email_prefix=${encodeURIComponent('ch_')}`)).data).toEqual([]);
    const first = await returnsOf(`email_prefix=chloe.&per_page=1&page=2`);
    expect(first.meta).toMatchObject({ total_count: 2, total_pages: 2, current_page: 2 });
    expect(first.data).toHaveLength(1);
  });

  it('works on the account route too and refuses an empty or overlong prefix clearly', async () => {
    const response = await call(s.origin, 'GET', `/api/v1/accounts/1/returns?email_prefix=bob-${tag}`, { token: s.account1 });
    expect(ReturnListResponseSchema.parse(response.json).data).toHaveLength(1);
    for (const bad of ['', '%20%20', 'x'.repeat(255)]) {
      const refused = await call(s.origin, 'GET', `/returns?email_prefix=${bad}`, { token: s.account1 });
      expect(refused.status, bad).toBe(400);
      expect(refused.json, refused.text).toMatchObject({ error_code: 'INVALID_QUERY', details: { fields: [{ path: 'email_prefix' }] } });
      expect(refused.text).toContain('email_prefix');
    }
  });
});

describe('sku_prefix', () => {
  it("finds the returns with a line whose SKU starts with it, whatever the case, in the token's account", async () => {
    const emails = async (query: string, token = s.account1) => (await returnsOf(query, token)).data.map((r) => r.email).sort();
    expect(await emails(`sku_prefix=WBN-${tag}`)).toEqual([`sku-wbn-${tag}-01@example.com`, `sku-wbn-${tag}-02@example.com`]);
    expect(await emails(`sku_prefix=lbt-${tag}-9`)).toEqual([`sku-lbt-${tag}-90@example.com`]);
    expect(await emails(`sku_prefix=WBN-${tag}`, s.account2)).toEqual([]);
    const refused = await call(s.origin, 'GET', `/returns?sku_prefix=${'x'.repeat(129)}`, { token: s.account1 });
    expect(refused.json, refused.text).toMatchObject({ error_code: 'INVALID_QUERY', details: { fields: [{ path: 'sku_prefix' }] } });
  });
});

describe('tracking_number_prefix', () => {
  it('finds the packages whose tracking number starts with it, case-insensitive, with other filters', async () => {
    const list = async (query: string) => {
      const response = await call(s.origin, 'GET', `/api/v1/accounts/1/return_packages?${query}`, { token: s.account1 });
      expect(response.status, response.text).toBe(200);
      return ReturnPackageListResponseSchema.parse(response.json);
    };
    expect((await list(`tracking_number_prefix=1zab${tag}`)).data.map((p) => p.tracking_number).sort()).toEqual([`1ZAB${tag}01`, `1zab${tag}02`].sort());
    expect((await list(`tracking_number_prefix=1Z&status=delivered`)).data).toEqual([]);
    expect((await list(`tracking_number_prefix=1ZCD${tag}&sort=id`)).meta.total_count).toBe(1);
    const other = await call(s.origin, 'GET', `/api/v1/accounts/2/return_packages?tracking_number_prefix=1ZAB${tag}`, { token: s.account2 });
    expect(ReturnPackageListResponseSchema.parse(other.json).data).toEqual([]);
  });
});

describe('every account at once: GET /api/v1/station/return_packages', () => {
  const list = async (query: string, token = s.stationToken) => {
    const response = await call(s.origin, 'GET', `/api/v1/station/return_packages?${query}`, { token });
    expect(response.status, response.text).toBe(200);
    return StationPackageListResponseSchema.parse(response.json);
  };

  it('lists the packages of every account, each row with its account, and filters one account', async () => {
    const both = await list(`tracking_number_prefix=1Z&sort=id&per_page=100`);
    const mine = both.data.filter((p) => p.tracking_number.toUpperCase().includes(tag.toUpperCase()));
    expect(mine.map((p) => [p.account_id, p.tracking_number.toUpperCase()])).toEqual([
      [1, `1ZAB${tag}01`.toUpperCase()],
      [1, `1ZAB${tag}02`.toUpperCase()],
      [1, `1ZCD${tag}03`.toUpperCase()],
      [2, `1ZEF${tag}04`.toUpperCase()],
    ]);
    const second = await list(`account_id=2&per_page=100`);
    expect(second.data.every((p) => p.account_id === 2)).toBe(true);
    expect(second.data.map((p) => p.tracking_number)).toContain(`1ZEF${tag}04`);
    // Paged like any list.
    const page = await list(`tracking_number_prefix=1ZAB${tag}&per_page=1&page=2`);
    expect(page.meta).toMatchObject({ total_count: 2, total_pages: 2, current_page: 2 });
  });

  it('is for station tokens only, and refuses a bad filter by name', async () => {
    const refused = await call(s.origin, 'GET', '/api/v1/station/return_packages', { token: s.account1 });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ error_code: 'ACCOUNT_FORBIDDEN' });
    const bad = await call(s.origin, 'GET', '/api/v1/station/return_packages?account_id=zero', { token: s.stationToken });
    expect(bad.json, bad.text).toMatchObject({ error_code: 'INVALID_QUERY', details: { fields: [{ path: 'account_id' }] } });
  });
});
