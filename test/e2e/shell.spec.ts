import { expect, test } from './fixtures.ts';

test('the UI loads and shows the station version from /healthz', async ({ page, station }) => {
  const health = (await (await fetch(`${station.origin}/healthz`)).json()) as { version: string; name: string };
  await page.goto(`${station.origin}/`);
  await expect(page.getByRole('heading', { name: health.name })).toBeVisible();
  await expect(page.getByTestId('station-version')).toHaveText(`Version ${health.version}`);
  await expect(page.getByTestId('link-state')).toHaveText('Station online');
});

test('the UI says plainly when the station is unreachable', async ({ page, station }) => {
  await page.clock.install();
  await page.goto(`${station.origin}/`);
  await expect(page.getByTestId('link-state')).toHaveText('Station online');
  await page.route('**/healthz', (route) => route.abort('connectionrefused'));
  await page.clock.runFor(6_000);
  await expect(page.getByTestId('link-state')).toContainText('unreachable');
  await expect(page.getByTestId('station-version')).toHaveText(/Version/);
});

test('the about box shows the version and the data directory schema version', async ({ page, station }) => {
  const health = (await (await fetch(`${station.origin}/healthz`)).json()) as { version: string; data_schema_version: number };
  await page.goto(`${station.origin}/`);
  await page.getByTestId('about').getByText('About').click();
  await expect(page.getByTestId('about-version')).toHaveText(health.version);
  await expect(page.getByTestId('about-data-schema')).toHaveText(String(health.data_schema_version));
});
