import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { pdfPages, pdfText, pixelsOf, unzipped } from '../support/evidence-reader.ts';
import { expect, test } from './fixtures.ts';
import { lineRow, openAndSignIn, scan, scenario, waitForQuietSync } from './receiving-helpers.ts';
import { signInSupervisor } from './supervisor-helpers.ts';

/*
 * The evidence pack from the package screen, at a dock's sizes and a handheld's: Alt+E saves the
 * pack's zip and opens its PDF. The zip, as saved, is read by programs that are not
 * the station's: its PDF's text (pdftotext) says what the station recorded of the units the worker
 * inspected at the keyboard, its pages (pdftoppm) show the photo, and the photo in it is the bytes
 * the dock's camera made (a JPEG the page's canvas encoded, as the camera does).
 */

const SIZES = [
  { name: '1024x600', width: 1024, height: 600 },
  { name: '800x600', width: 800, height: 600 },
  { name: '412x915', width: 412, height: 915 },
] as const;

const ORANGE: [number, number, number] = [250, 140, 0];

/** The page's canvas, as much of it as the photo needs (the tests are typed for Node, not the DOM). */
interface PageCanvas {
  width: number;
  height: number;
  getContext(kind: '2d'): { fillStyle: string; fillRect(x: number, y: number, w: number, h: number): void } | null;
  toBlob(done: (blob: Blob | null) => void, type: string, quality: number): void;
}

/** A solid orange photo as the dock's camera makes one: a canvas encoded as JPEG by the browser. */
async function cameraJpeg(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async (rgb) => {
    const canvas = (globalThis as unknown as { document: { createElement(tag: 'canvas'): PageCanvas } }).document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 480;
    const g = canvas.getContext('2d');
    if (!g) throw new Error('no 2d context');
    g.fillStyle = `rgb(${rgb.join(',')})`;
    g.fillRect(0, 0, 640, 480);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85));
    if (!blob) throw new Error('no JPEG');
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let text = '';
    for (const b of bytes) text += String.fromCharCode(b);
    return btoa(text);
  }, ORANGE);
  return Buffer.from(base64, 'base64');
}

for (const size of SIZES) {
  test.describe(`at ${size.name}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test(`Alt+E saves the pack: the PDF says what was recorded and shows the photo, the zip holds it`, async ({ page, demo }, testInfo) => {
      const s = await scenario(demo, 'delivered');
      const [a, b] = s.skus;
      await openAndSignIn(page, demo, s.operator);
      await scan(page, s.tracking);
      // The key bar names it (a handheld's under Keys: it has no keyboard of its own).
      if (size.width < 600) await page.getByTestId('keys-toggle').click();
      await expect(page.getByTestId('key-legend')).toContainText('Alt+E evidence');
      if (size.width < 600) await page.getByTestId('keys-toggle').click();
      await scan(page, a ?? '');
      await page.keyboard.press('2'); // like new
      await page.keyboard.press('Enter');
      await expect(lineRow(page, a ?? '')).toContainText('Like new');
      await scan(page, b ?? '');
      await page.keyboard.press('5'); // damaged
      await page.keyboard.press('Enter');
      await expect(lineRow(page, b ?? '')).toContainText('Damaged');
      await waitForQuietSync(page);
      const photo = await cameraJpeg(page);
      const takenAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 30_000).toISOString();
      await demo.api.uploadMedia(s.accountId, s.packageId, new Blob([photo], { type: 'image/jpeg' }), { contentType: 'image/jpeg', capturedAt: takenAt });

      const download = page.waitForEvent('download');
      const opened = page.context().waitForEvent('page');
      await page.keyboard.press('Alt+E');
      const saved = await download;
      expect(saved.suggestedFilename()).toBe(`evidence-${s.tracking}.zip`);
      const pdfTab = await opened;
      expect(pdfTab.url()).toMatch(/^blob:/);
      await pdfTab.close();
      await expect(page.getByTestId('notice')).toContainText(`Evidence pack saved: evidence-${s.tracking}.zip`);
      await page.screenshot({ path: testInfo.outputPath(`evidence-pack-${size.name}.png`) });

      // What the station recorded, as the pack must say it.
      const pkg = await demo.api.getPackage(s.accountId, s.packageId);
      const files = unzipped(await readFile(await saved.path()));
      const pdf = files.get(`evidence-${s.tracking}.pdf`);
      if (!pdf) throw new Error(`no PDF in the zip: ${[...files.keys()].join(', ')}`);
      const text = pdfText(pdf);
      expect(text).toContain(`Return evidence: parcel ${s.tracking}`);
      expect(text).toContain('Measured: not weighed');
      expect(text).toContain('Review not reviewed');
      expect(pkg.line_items.map((item) => item.condition)).toEqual(['like_new', 'damaged']);
      for (const item of pkg.line_items) {
        expect(text).toContain(`Unit ${item.unit_id ?? '?'} · condition ${(item.condition ?? '').replace('_', ' ')}`);
        expect(text).toContain(`bin ${item.bin ?? '?'}`);
      }
      expect(text).toMatch(new RegExp(`UTC ${s.operator.name} unit \\S+: condition damaged`));
      expect(text).toContain(`Photo 1 of 1 · taken ${takenAt.slice(0, 10)} ${takenAt.slice(11, 19)} UTC`);
      // The photo on the page (JPEG: its colour within a few steps), and in the zip byte for byte.
      expect(pdfPages(pdf).reduce((n, p) => n + pixelsOf(p, ORANGE, 30), 0)).toBeGreaterThan(10_000);
      const inZip = [...files.entries()].filter(([name]) => name.startsWith('photos/'));
      expect(inZip.map(([name]) => name)).toEqual([
        `photos/photo-01-taken-${takenAt.slice(0, 10).replace(/-/g, '')}-${takenAt.slice(11, 19).replace(/:/g, '')}Z.jpg`,
      ]);
      expect(Buffer.compare(inZip[0]?.[1] ?? Buffer.alloc(0), photo)).toBe(0);
    });
  });
}

test.describe('from the review list (1024x600)', () => {
  test.use({ viewport: { width: 1024, height: 600 } });

  test("a held parcel's evidence pack button saves its pack, which says why it is held", async ({ page, demo }, testInfo) => {
    const s = await scenario(demo, 'delivered');
    await demo.api.updatePackage(s.accountId, s.packageId, { weight: 1.8, weight_unit: 'kg' });
    await demo.api.createLineItem(s.accountId, s.packageId, { return_line_item_id: s.ret.return_line_items[0]?.id ?? null, condition: 'new' });
    await demo.api.weighPackage(s.accountId, s.packageId, { source: 'typed', weight: 0.21, unit: 'kg' });
    await openAndSignIn(page, demo, s.operator);
    await signInSupervisor(page);
    await page.keyboard.press('Alt+D');
    await page.getByTestId('supervisor-reviews').click();
    const row = page.locator(`[data-testid="review-package"][data-package-id="${s.packageId}"]`);
    await expect(row).toContainText(s.tracking);
    const download = page.waitForEvent('download');
    await row.getByTestId('evidence-pack').click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe(`evidence-${s.tracking}.zip`);
    await page.screenshot({ path: testInfo.outputPath('evidence-pack-review-list.png') });
    const pdf = unzipped(await readFile(await saved.path())).get(`evidence-${s.tracking}.pdf`);
    const text = pdfText(pdf ?? Buffer.alloc(0));
    expect(text).toContain('Decision: held, waiting for a supervisor');
    expect(text).toMatch(/weight check: weighed 0\.21 kg, expected 1\.8/);
    expect(text).toContain('Weight check: lighter than the tolerance allows');
  });
});
