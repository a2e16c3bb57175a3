import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReturn, startStation, type TestStation } from '../api/support.ts';
import { latestAccountCurrency } from '../../renderer/src/registering/account-currency.ts';
import { StationCable } from './station-cable.ts';

/*
 * The register's currency for a new manual return, against a real station: the account's latest
 * return's currency; none (the station's stands in) for an account without returns or when the
 * station cannot be reached.
 */

let ts: TestStation;
beforeAll(async () => {
  ts = await startStation();
  await createReturn(ts.origin, ts.account1, { currency: 'USD' });
  await createReturn(ts.origin, ts.account1, { currency: 'EUR' });
});
afterAll(async () => {
  await ts.close();
});

describe('the account currency of a new manual return', () => {
  it('is the currency of the account’s latest return', async () => {
    expect(await latestAccountCurrency(new StationCable(ts).client(), 1)).toBe('EUR');
  });

  it('is none for an account without returns, and when the station cannot be reached', async () => {
    const cable = new StationCable(ts);
    expect(await latestAccountCurrency(cable.client(), 2)).toBeNull();
    cable.down = true;
    expect(await latestAccountCurrency(cable.client(), 1)).toBeNull();
  });
});
