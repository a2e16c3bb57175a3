import { expect, test } from './fixtures.ts';
import { lineRow, openAndSignIn, openSettings, scan, scenario, waitForQuietSync } from './receiving-helpers.ts';
import { signInSupervisor } from './supervisor-helpers.ts';

/*
 * Feedback a dock worker hears and reads: F3 has a tone of its own, + and − say
 * what they did, and a camera failure is said in plain words, not the browser's text.
 */

/** Records the frequencies of every tone the page plays (its WebAudio oscillators). Page source as
 *  text: this file is type-checked without the DOM library. */
const RECORD_TONES = `
  window.tones = [];
  const Original = window.AudioContext;
  window.AudioContext = class extends Original {
    current = [];
    createOscillator() {
      const osc = super.createOscillator();
      if (this.current.length === 0) window.tones.push(this.current);
      const tone = this.current;
      queueMicrotask(() => { this.current = []; });
      const start = osc.start.bind(osc);
      osc.start = (when) => { tone.push(osc.frequency.value); start(when); };
      return osc;
    }
  };
`;

const NO_CAMERA = `navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Requested device not found', 'NotFoundError'));`;

test('F3 plays its own tone, not the wrong-item tone; + and − say what they did', async ({ page, demo }) => {
  await page.addInitScript(RECORD_TONES);
  const s = await scenario(demo, 'delivered');
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  await scan(page, 'NOT-ON-THIS-RETURN');
  await expect(page.getByTestId('notice')).toContainText('Unexpected item');
  await expect(page.getByTestId('notice')).toHaveAttribute('data-tone', 'warning');
  const tones = async () => (await page.evaluate<number[][]>('window.tones')).map((t) => t.join(','));
  const wrongItem = (await tones()).at(-1);

  await scan(page, s.skus[1]);
  await page.keyboard.press('F3');
  await expect(page.getByTestId('notice')).toHaveText('Marked defective → Return to vendor, bin RTV');
  await expect(page.getByTestId('notice')).toHaveAttribute('data-tone', 'defective');
  await expect.poll(async () => (await tones()).length).toBeGreaterThan(2);
  const defective = (await tones()).at(-1);
  expect(defective).toBeTruthy();
  expect(defective).not.toBe(wrongItem);

  await page.keyboard.press('+');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('notice')).toHaveText('Another unit (2 now): set its condition.');
  await expect(lineRow(page, s.skus[1]).getByTestId('line-here')).toHaveText('2');
  await page.keyboard.press('-');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('notice')).toHaveText('Unit taken off (F8 undoes).');
  await expect(lineRow(page, s.skus[1]).getByTestId('line-here')).toHaveText('1');
});

test('a missing camera is said in plain words, not the browser’s “Requested device not found”', async ({ page, demo }) => {
  await page.addInitScript(NO_CAMERA);
  const s = await scenario(demo, 'delivered');
  await openAndSignIn(page, demo, s.operator);
  await page.keyboard.press('F9');
  await expect(page.getByTestId('notice')).toContainText('No camera found.');
  await expect(page.getByTestId('notice')).not.toContainText('Requested device');
  await scan(page, s.tracking);
  await scan(page, s.skus[0]);
  // The item's own notice first: otherwise it can land after F4's and replace it (a loaded machine).
  await expect(page.getByTestId('notice')).toContainText(': 1');
  await page.keyboard.press('F4');
  await expect(page.getByTestId('notice')).toContainText('No camera found. Connect a camera');
  await expect(page.getByTestId('notice')).toContainText('dropping, pasting or picking files');
});

test('receiving with conditions not set asks to confirm by default; the station can allow it at once', async ({ page, demo }) => {
  const s = await scenario(demo, 'delivered');
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  await scan(page, s.skus[0]);
  await page.keyboard.press('2');
  await page.keyboard.press('Enter');
  await expect(lineRow(page, s.skus[0])).toContainText('Like new');
  await scan(page, s.skus[2]);
  await waitForQuietSync(page);
  await page.keyboard.press('F2');
  // One question listing all that is missing: the line not scanned, the condition, the put.
  await expect(page.getByTestId('notice')).toContainText(`Receive ${s.tracking} — 2 of 4 units scanned (Item B `);
  await expect(page.getByTestId('notice')).toContainText('0 of 2); 1 unit with no condition; ');
  await expect(page.getByTestId('notice')).toContainText('not put in');
  await expect(page.getByTestId('notice')).toContainText('? Press F2 (or scan or tap Receive) again');
  await expect(page.getByTestId('notice')).toHaveAttribute('data-tone', 'warning');
  await expect(page.getByTestId('package-view')).toBeVisible();
  expect((await demo.api.getPackage(s.accountId, s.packageId)).status).toBe('delivered');
  await page.keyboard.press('F2');
  await expect(page.getByTestId('notice')).toContainText(`Received ${s.tracking}`);
  expect((await demo.api.getPackage(s.accountId, s.packageId)).status).toBe('received');

  // The station's setting: received at once, and it lasts across a reload.
  const next = await scenario(demo, 'delivered');
  await signInSupervisor(page);
  await openSettings(page);
  await page.getByTestId('unset-conditions').selectOption('allow');
  await page.reload();
  await expect(page.getByTestId('link-state')).toHaveText('Station online');
  await expect(page.getByTestId('scan-field')).toBeFocused();
  await scan(page, next.tracking);
  await expect(page.getByTestId('tracking-number')).toHaveText(next.tracking);
  await scan(page, next.skus[0]);
  await waitForQuietSync(page);
  // Still asked about what is missing (the other lines), no longer about the condition.
  await page.keyboard.press('F2');
  await expect(page.getByTestId('notice')).toContainText('1 of 4 units scanned');
  await expect(page.getByTestId('notice')).not.toContainText('condition');
  await page.keyboard.press('F2');
  await expect(page.getByTestId('notice')).toContainText(`Received ${next.tracking}`);
});
