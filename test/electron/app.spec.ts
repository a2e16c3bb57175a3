import { spawn } from 'node:child_process';
import { ApiClient } from '../../shared/api/client.ts';
import { manualReturnBody, returnLine } from '../support/manual-return.ts';
import { asSupervisor } from '../support/supervisor.ts';
import { expect, launchDesktop, test } from './fixture.ts';

/*
 * The desktop app itself (packaged, or the unpackaged build), driven through its window. These run
 * where the Electron binary exists (the desktop CI workflow); elsewhere each skips and says why.
 * What can run without the binary is tested in test/desktop/ against the built main bundle.
 */

test.describe('first start', () => {
  test('an empty data directory opens at sign-in, with the version and nothing of Node in the page', async ({ desktop }) => {
    const { window } = desktop;
    await expect(window.getByTestId('station-version')).toHaveText(/\d+\.\d+\.\d+/);
    await expect(window.getByTestId('scan-field')).toBeFocused();
    expect(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    expect(await window.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined');
    // The preload exposes the connection object and nothing else.
    expect(await window.evaluate(() => Object.keys((globalThis as { station?: object }).station ?? {}).sort())).toEqual(['baseUrl', 'token', 'version']);
    expect((await desktop.api.station()).accounts).toEqual([]);
  });
});

test.describe('with demo data', () => {
  test.use({ demo: true });

  test('the demo seeds packages, and a three-line package is received with the keyboard alone', async ({ desktop }) => {
    const { window, api } = desktop;
    const account = (await api.station()).accounts[0]?.id ?? 1001;
    const ret = await api.createReturn(
      manualReturnBody({ account_id: account, email: 'qa@example.com', return_line_items: [returnLine('QA-MUG', 1, { name: 'Mug' })] }),
    );
    await api.createPackage(account, { return_id: ret.id, tracking_number: 'QA-TRACK-1' });
    // The window's token is a terminal's: adding a worker takes the station's first supervisor.
    const operator = await (await asSupervisor(api)).createOperator({ name: 'QA worker', badge_code: 'BADGE-QA' });

    await window.keyboard.type('BADGE-QA\n');
    await expect(window.getByTestId('operator')).toContainText(operator.name);
    await window.keyboard.type('QA-TRACK-1\n');
    await expect(window.getByTestId('tracking-number')).toHaveText('QA-TRACK-1');
    await window.keyboard.type('QA-MUG\n');
    await window.keyboard.press('2');
    await expect(window.getByTestId('sync-state')).toHaveText('All changes saved on the station');
    await window.keyboard.press('F2');
    await expect(window.getByTestId('notice')).toContainText('Received QA-TRACK-1');
    const [pkg] = (await api.listPackages(account, { tracking_number: 'QA-TRACK-1' })).data;
    expect(pkg?.status).toBe('received');
  });

  test('a restart keeps the data', async ({ desktop }) => {
    const account = (await desktop.api.station()).accounts[0]?.id ?? 1001;
    const before = await desktop.api.listPackages(account, { per_page: 250 });
    const again = await desktop.restart();
    expect(await again.api.listPackages(account, { per_page: 250 })).toEqual(before);
  });
});

test('a second launch focuses the running window instead of failing', async ({ desktop }) => {
  const executable = desktop.app.process().spawnfile;
  const second = spawn(executable, desktop.app.process().spawnargs.slice(1), { env: { ...process.env, RETURNS_STATION_DATA_DIR: desktop.dataDir } });
  const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
  expect(code).toBe(0);
  expect(desktop.app.windows()).toHaveLength(1);
});

test('quitting while a request is in flight finishes it and releases the data directory', async ({ desktop }) => {
  const upload = desktop.window.evaluate(async () => {
    const { baseUrl, token } = (globalThis as unknown as { station: { baseUrl: string; token: string } }).station;
    const response = await fetch(`${baseUrl}/api/v1/station`, { headers: { authorization: `Bearer ${token}` } });
    return response.status;
  });
  await desktop.app.close();
  expect([200, 503]).toContain(await upload.catch(() => 503));
  // The data directory is free: the app starts again on it.
  const again = await launchDesktop(desktop.dataDir);
  await expect(again.window.getByTestId('station-version')).toHaveText(/\d+\.\d+\.\d+/);
  await again.app.close();
});

test('the station runs in its own core process, which is started again after a crash, the window reconnecting', async ({ desktop }) => {
  await (await asSupervisor(desktop.api)).createOperator({ name: 'Before the crash' });
  // docs/decisions/core-process.md: the core is a utility process named in Electron's process list.
  const pid = await desktop.app.evaluate(({ app }) => app.getAppMetrics().find((metric) => metric.name === 'Returns Station core')?.pid);
  expect(pid).toBeDefined();
  expect(pid).not.toBe(desktop.app.process().pid);
  process.kill(pid ?? 0, 'SIGKILL');
  const token = () => desktop.window.evaluate(() => (globalThis as { station?: { token: string } }).station?.token).catch(() => undefined);
  await expect.poll(token, { timeout: 30_000 }).not.toBe(desktop.token);
  const connection = await desktop.window.evaluate(() => (globalThis as unknown as { station: { baseUrl: string; token: string } }).station);
  const api = new ApiClient(connection);
  expect((await api.listOperators({ per_page: 250 })).data.map((operator) => operator.name)).toContain('Before the crash');
  await expect(desktop.window.getByTestId('station-version')).toHaveText(/\d+\.\d+\.\d+/);
});

test('the camera is granted to the station itself, the microphone never', async ({ desktop }) => {
  const result = await desktop.window.evaluate(async () => {
    type Media = { getUserMedia(constraints: object): Promise<{ getTracks(): Array<{ stop(): void }> }> };
    const media = (globalThis as unknown as { navigator: { mediaDevices: Media } }).navigator.mediaDevices;
    const video = await media.getUserMedia({ video: true }).then(
      (stream) => (stream.getTracks().forEach((t) => t.stop()), 'granted'),
      (error: Error) => error.name,
    );
    const audio = await media.getUserMedia({ audio: true }).then(
      () => 'granted',
      (error: Error) => error.name,
    );
    return { video, audio };
  });
  expect(result).toEqual({ video: 'granted', audio: 'NotAllowedError' });
});

test('the window cannot be navigated away or open new windows', async ({ desktop }) => {
  const { window: page } = desktop;
  const url = page.url();
  await page.evaluate(() => {
    (globalThis as unknown as { location: { href: string } }).location.href = 'https://example.com/';
  });
  await page.waitForTimeout(500);
  expect(page.url()).toBe(url);
  expect(await page.evaluate(() => (globalThis as unknown as { open(url: string): unknown }).open('https://example.com/') === null)).toBe(true);
  expect(desktop.app.windows()).toHaveLength(1);
});

test.describe('on a frozen clock', () => {
  test.use({ clock: new Date('2027-01-04T12:00:00Z'), freezeClock: true });

  test("the station works on the tester's date, and the about box shows both versions", async ({ desktop }) => {
    expect((await desktop.api.station()).today.date).toBe('2027-01-04');
    await desktop.window.getByTestId('about').getByText('About').click();
    await expect(desktop.window.getByTestId('about-version')).toHaveText(/\d+\.\d+\.\d+/);
    await expect(desktop.window.getByTestId('about-data-schema')).toHaveText(/^\d+$/);
  });
});
