import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import bwipjs from 'bwip-js';
import { PNG } from 'pngjs';
import { expect, test } from './fixtures.ts';
import { scan, scenario } from './receiving-helpers.ts';

/*
 * Camera scanning, end to end: a real Code 128 barcode is rendered, written as a Y4M video and fed
 * to Chromium as its camera; the UI must read it and open the package.
 */

const W = 1280;
const H = 720;

async function barcodeY4m(text: string, file: string): Promise<void> {
  const png = PNG.sync.read(
    await bwipjs.toBuffer({ bcid: 'code128', text, scale: 3, height: 18, paddingwidth: 12, paddingheight: 12, backgroundcolor: 'FFFFFF' }),
  );
  const y = Buffer.alloc(W * H, 235);
  const left = Math.max(0, Math.floor((W - png.width) / 2));
  const top = Math.max(0, Math.floor((H - png.height) / 2));
  for (let row = 0; row < Math.min(png.height, H); row++) {
    for (let col = 0; col < Math.min(png.width, W); col++) {
      const i = (row * png.width + col) * 4;
      const luma = Math.round(0.299 * (png.data[i] ?? 0) + 0.587 * (png.data[i + 1] ?? 0) + 0.114 * (png.data[i + 2] ?? 0));
      y[(top + row) * W + left + col] = 16 + Math.round((luma * 219) / 255);
    }
  }
  const chroma = Buffer.alloc((W / 2) * (H / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma]);
  writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${W} H${H} F30:1 Ip A1:1 C420jpeg\n`), frame, frame, frame]));
}

const executablePath = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

test('camera scan mode reads a barcode from the (fake) camera and opens its package', async ({ demo }) => {
  test.setTimeout(60_000);
  const s = await scenario(demo);
  const dir = mkdtempSync(join(tmpdir(), 'returns-camera-'));
  const video = join(dir, 'barcode.y4m');
  await barcodeY4m(s.tracking, video);
  const browser = await chromium.launch({
    ...(executablePath ? { executablePath } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
  try {
    const page = await browser.newPage();
    const wasm: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('.wasm')) wasm.push(r.url());
    });
    await page.goto(demo.uiUrl);
    // The badge is scanned once the screen is up, as a worker would (keys sent before land nowhere).
    await expect(page.getByTestId('scan-field')).toBeFocused();
    await scan(page, s.operator.badge_code ?? '');
    await expect(page.getByTestId('operator')).toContainText(s.operator.name);
    await page.keyboard.press('F9');
    await expect(page.getByTestId('camera-scan')).toHaveAttribute('data-ready', 'true');
    await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking, { timeout: 20_000 });
    // The decoder came from the station itself, not from a CDN.
    expect(wasm.length).toBeGreaterThan(0);
    expect(wasm.every((u) => u.startsWith(demo.origin))).toBe(true);
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
