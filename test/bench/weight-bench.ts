// The weight check at the dock: a parcel on the station's scale (the MT-SICS simulator on TCP) is
// scanned; the figure is the time from the scale's stable answer to the weight and verdict on the
// package screen (p95 < 300 ms), beside the package screen opening with no scale (scan Enter → the
// package shown), measured in the same run. Run alone: BENCH_SECTIONS=weight npm run bench.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { ApiClient } from '../../shared/api/client.ts';
import { startScaleSimulator } from '../support/scale-simulator.ts';
import { startStation } from '../support/station-process.ts';
import type { BenchRow } from './report.ts';
import { percentile, signedIn, uiLink } from './ui-bench.ts';

const PARCELS = 40;
const BASELINE = 'package screen opens, no scale (scan Enter → package shown)';

/** The wall-clock time (Date.now, the test process's clock too) the page first shows `code`'s package with a verdict. */
const ARM_VERDICT = `(code) => new Promise((resolve) => {
  const shown = () => document.querySelector('[data-testid="tracking-number"]')?.textContent === code
    && !['none', null, undefined].includes(document.querySelector('[data-testid="weighing"]')?.getAttribute('data-verdict'));
  const observer = new MutationObserver(() => { if (shown()) { observer.disconnect(); resolve(Date.now()); } });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
})`;

/** Milliseconds from the scan's Enter keydown to `code`'s package shown. */
const ARM_OPENED = `(code) => new Promise((resolve) => {
  let start = 0;
  const onKey = (e) => { if (e.key === 'Enter') start = e.timeStamp; };
  window.addEventListener('keydown', onKey, true);
  const observer = new MutationObserver(() => {
    if (start === 0 || document.querySelector('[data-testid="tracking-number"]')?.textContent !== code) return;
    observer.disconnect();
    window.removeEventListener('keydown', onKey, true);
    resolve(performance.now() - start);
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
})`;

async function timed(page: Page, timer: string, tracking: string): Promise<number> {
  await page.evaluate(`window.__weightTimer = (${timer})(${JSON.stringify(tracking)}); 0`);
  await page.keyboard.type(`${tracking}\n`);
  const value = Number(await page.evaluate('window.__weightTimer'));
  await page.keyboard.press('Escape');
  await page.getByRole('heading', { name: 'Ready for the next parcel' }).waitFor();
  return value;
}

export async function runWeightBench(): Promise<BenchRow[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'returns-weight-bench-'));
  const station = await startStation({ dataDir, args: ['--demo'], timeoutMs: 60_000 });
  const scale = await startScaleSimulator('mt_sics', { weight: 0.95, unit: 'kg' });
  const executablePath = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
  const browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    const api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
    const accountId = (await api.station()).accounts[0]?.id ?? 1;
    await api.createOperator({ name: 'Bench worker', badge_code: 'BENCH-BADGE' });
    const parcels: Array<{ tracking: string; id: number }> = [];
    for (let i = 0; i < 2 * PARCELS; i++) {
      const ret = await api.createReturn({
        account_id: accountId,
        email: `weigh-${i}@example.com`,
        receive_by: '2030-01-01',
        total_price: 10,
        currency: 'USD',
        weight: 1,
        weight_unit: 'kg',
        reason_of_return: 'Bench',
        length: 1,
        width: 1,
        height: 1,
        dimension_unit: 'cm',
        return_line_items: [{ quantity: 1, unreceived_quantity: 1, name: 'Mug', price: 10, currency: 'USD', merchant_sku: `WEIGH-${i}` }],
      });
      const tracking = `WEIGH${String(i).padStart(6, '0')}X`;
      const pkg = await api.createPackage(accountId, { return_id: ret.id, tracking_number: tracking, status: 'in_transit' });
      parcels.push({ tracking, id: pkg.id });
    }
    const page = await signedIn(await browser.newPage({ viewport: { width: 1024, height: 600 } }), await uiLink(station.output));

    await api.chooseScale({ kind: 'manual' });
    const opened: number[] = [];
    for (const { tracking } of parcels.slice(0, PARCELS)) opened.push(await timed(page, ARM_OPENED, tracking));

    // The page learns the scale when it loads: a new page after the choice, as a dock's terminal starts.
    await api.chooseScale({ kind: 'tcp', host: '127.0.0.1', port: scale.port, protocol: 'mt_sics' });
    const weighPage = await signedIn(await browser.newPage({ viewport: { width: 1024, height: 600 } }), await uiLink(station.output));
    const afterStable: number[] = [];
    const afterScan: number[] = [];
    for (const { tracking } of parcels.slice(PARCELS)) {
      // The parcel settles on the scale: one answer in motion, then stable (the station asks again 150 ms later).
      scale.set({ movingFor: 1 });
      await weighPage.evaluate(`window.__weightTimer = (${ARM_VERDICT})(${JSON.stringify(tracking)}); 0`);
      const scannedAt = Date.now();
      await weighPage.keyboard.type(`${tracking}\n`);
      const shownAt = Number(await weighPage.evaluate('window.__weightTimer'));
      const stableAt = scale.lastStableAt() ?? Number.NaN;
      afterStable.push(shownAt - stableAt);
      afterScan.push(shownAt - scannedAt);
      await weighPage.keyboard.press('Escape');
      await weighPage.getByRole('heading', { name: 'Ready for the next parcel' }).waitFor();
    }
    const recorded = await api.packageWeight(accountId, parcels.at(-1)?.id ?? 0).catch(() => null);
    for (const list of [opened, afterStable, afterScan]) list.sort((a, b) => a - b);
    const p95 = percentile(afterStable, 95);
    return [
      { section: 'weight', name: BASELINE, p50_ms: percentile(opened, 50), value: `p95 ${percentile(opened, 95).toFixed(1)} ms` },
      {
        section: 'weight',
        name: 'parcel on the scale → weight and verdict on screen, after the scale is stable',
        p50_ms: percentile(afterStable, 50),
        value: `p95 ${p95.toFixed(1)} ms (scan Enter → verdict p95 ${percentile(afterScan, 95).toFixed(1)} ms); last recorded: ${recorded ? `${recorded.weight} ${recorded.unit} ${recorded.verdict}` : 'none'}`,
        baseline: BASELINE,
        target: 'p95 < 300 ms',
        ok: p95 < 300,
      },
    ];
  } finally {
    await browser.close();
    await scale.close();
    await station.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
