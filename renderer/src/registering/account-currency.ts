import type { ApiClient } from '#shared/api/client.ts';
import type { CurrencyCode } from '#shared/api/currencies.ts';

/** What the currency lookup asks of the station. */
export type AccountCurrencyClient = Pick<ApiClient, 'listAccountReturns'>;

/**
 * The currency an account works in: its latest return's. Null when it has no return yet or the station
 * cannot be asked (offline): the station's currency stands in then.
 */
export async function latestAccountCurrency(client: AccountCurrencyClient, account: number): Promise<CurrencyCode | null> {
  try {
    const page = await client.listAccountReturns(account, { per_page: 1 });
    return (page.data[0]?.currency as CurrencyCode | undefined) ?? null;
  } catch {
    return null;
  }
}
