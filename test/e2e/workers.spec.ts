import { ApiClient, ApiError } from '../../shared/api/client.ts';
import { startStation } from '../support/station-process.ts';
import { expect, test } from './fixtures.ts';

/*
 * The first start of a new station, by keyboard: the sign-in screen asks for the first supervisor,
 * who then adds a worker with a badge and a sign-in key and deactivates another on the Workers
 * screen; the station recorded each change (read with the command line's token), and the screen's
 * own token still cannot change workers without the supervisor's session.
 */

test('a new station asks for its first supervisor, who adds and deactivates workers by keyboard', async ({ page }) => {
  test.slow();
  const station = await startStation();
  try {
    const admin = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
    await page.goto(`${station.origin}/#token=${station.uiToken}`);
    await expect(page.getByTestId('link-state')).toHaveText('Station online');
    const form = page.getByTestId('first-supervisor');
    await expect(form).toBeVisible();

    // Nobody to scan in yet: the first person starts at the name.
    await expect(page.getByTestId('first-name')).toBeFocused();
    await page.keyboard.type('Morgan Diaz', { delay: 90 });
    await page.keyboard.press('Tab');
    await page.keyboard.type('SUP-01', { delay: 90 });
    await page.keyboard.press('Tab');
    await page.keyboard.type('2468', { delay: 90 });
    await page.keyboard.press('Tab');
    await page.keyboard.type('2467', { delay: 90 });
    await page.keyboard.press('Enter');
    // Two PINs that differ are refused on the screen, nothing sent.
    await expect(page.getByTestId('first-supervisor-error')).toContainText('The two PINs differ');
    expect((await admin.listOperators()).data).toEqual([]);
    await page.getByTestId('first-pin-again').fill('');
    await page.getByTestId('first-pin-again').focus();
    await page.keyboard.type('2468', { delay: 90 });
    await page.keyboard.press('Enter');

    // Signed in as the worker and as the supervisor, on the Workers screen.
    const screen = page.getByTestId('workers-screen');
    await expect(screen).toBeVisible();
    await expect(page.getByTestId('operator')).toContainText('Morgan Diaz');
    await expect(page.getByTestId('supervisor-state')).toContainText('Morgan Diaz');
    const [morgan] = (await admin.listOperators()).data;
    expect(morgan).toMatchObject({ name: 'Morgan Diaz', badge_code: 'SUP-01', role: 'supervisor', has_pin: true, active: true });

    // Two workers, by keyboard: name, Tab, badge, Tab, the sign-in key, Enter adds.
    for (const [name, badge, key] of [
      ['Ada Lovelace', 'BADGE-ADA', '1'],
      ['Bo Diddley', 'BADGE-BO', '2'],
    ] as const) {
      await page.getByTestId('worker-name').focus();
      await page.keyboard.type(name, { delay: 90 });
      await page.keyboard.press('Tab');
      await page.keyboard.type(badge, { delay: 90 });
      await page.keyboard.press('Tab');
      await expect(page.getByTestId('worker-key')).toBeFocused();
      await page.keyboard.press(key);
      await page.keyboard.press('Enter');
      await expect(screen.getByTestId('worker-row').filter({ hasText: name })).toContainText('active');
    }
    // A taken key is refused beside nothing lost: the station's words on the screen.
    await page.getByTestId('worker-name').focus();
    await page.keyboard.type('Cy Twombly', { delay: 90 });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('1');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('workers-error')).toContainText('Key 1 already signs in Ada Lovelace');
    await expect(page.getByTestId('worker-name')).toHaveValue('Cy Twombly');

    // Deactivate Bo by keyboard.
    await screen.getByRole('button', { name: 'Deactivate Bo Diddley' }).focus();
    await page.keyboard.press('Enter');
    await expect(screen.getByTestId('worker-row').filter({ hasText: 'Bo Diddley' })).toContainText('deactivated');

    // What the station recorded.
    const recorded = (await admin.listOperators()).data.map((o) => [o.name, o.badge_code, o.sign_in_key, o.role, o.active]);
    expect(recorded).toEqual([
      ['Morgan Diaz', 'SUP-01', null, 'supervisor', true],
      ['Ada Lovelace', 'BADGE-ADA', 1, 'worker', true],
      ['Bo Diddley', 'BADGE-BO', 2, 'worker', false],
    ]);
    // The screen's own token cannot do it alone.
    const refused = await new ApiClient({ baseUrl: station.origin, token: station.uiToken }).createOperator({ name: 'Nobody' }).catch((e: unknown) => e);
    expect(refused instanceof ApiError ? refused.errorCode : refused).toBe('SUPERVISOR_REQUIRED');

    // Esc leaves the screen; the supervisor signs out; Ada signs in with her key.
    await page.keyboard.press('Escape');
    await expect(screen).toHaveCount(0);
    await page.getByTestId('supervisor-sign-out').click();
    await expect(page.getByTestId('supervisor-state')).toHaveCount(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Who is receiving?' })).toBeVisible();
    await expect(page.getByTestId('first-supervisor')).toHaveCount(0);
    await page.getByTestId('scan-field').focus();
    await page.keyboard.press('1');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('operator')).toContainText('Ada Lovelace');
  } finally {
    await station.stop();
  }
});
