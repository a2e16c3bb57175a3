import type { Operator } from '#shared/api/station.ts';
import { DEMO_SUPERVISOR, expect, test } from './fixtures.ts';
import { scan } from './receiving-helpers.ts';

/*
 * A terminal is never given the supervisors' badges (its list of workers has them as null). A
 * supervisor's badge scanned at the dock is asked of the station, that one code only: the station
 * answers that it needs a PIN, the screen asks for the PIN alone, and the supervisor is then signed
 * in to work and as supervisor.
 */

test("a supervisor's badge scanned at sign-in asks for the PIN, signs them in to work and as supervisor; the terminal never had the badge", async ({
  page,
  demo,
}) => {
  const lists: Operator[][] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api/v1/station/operators' && response.request().method() === 'GET')
      void response.json().then((body: { data: Operator[] }) => lists.push(body.data));
  });
  await page.goto(demo.uiUrl);
  await expect(page.getByTestId('link-state')).toHaveText('Station online');
  await expect(page.getByTestId('scan-field')).toBeFocused();
  await scan(page, DEMO_SUPERVISOR.badge);
  // Only the PIN is asked: the badge is in its field, the PIN field has the focus.
  await expect(page.getByTestId('supervisor-dialog')).toBeVisible();
  await expect(page.getByTestId('supervisor-badge')).toHaveValue(DEMO_SUPERVISOR.badge);
  await expect(page.getByTestId('supervisor-pin')).toBeFocused();
  // A wrong PIN is refused in words, and nobody is signed in.
  await page.keyboard.type('0000', { delay: 60 });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('supervisor-error')).toBeVisible();
  await expect(page.getByTestId('operator')).toContainText('Nobody signed in');
  await page.keyboard.type(DEMO_SUPERVISOR.pin, { delay: 60 });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('supervisor-dialog')).toHaveCount(0);
  await expect(page.getByTestId('supervisor-state')).toContainText(DEMO_SUPERVISOR.name);
  await expect(page.getByTestId('operator')).toContainText(DEMO_SUPERVISOR.name);

  // Every list of workers this terminal was given: the supervisor in it, the badge not.
  expect(lists.length).toBeGreaterThan(0);
  for (const list of lists) {
    expect(list.find((o) => o.name === DEMO_SUPERVISOR.name)).toMatchObject({ role: 'supervisor', badge_code: null });
    expect(JSON.stringify(list)).not.toContain(DEMO_SUPERVISOR.badge);
  }
  // The page keeps no supervisor badge either (its signed-in worker is kept across reloads).
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(DEMO_SUPERVISOR.badge);
});
