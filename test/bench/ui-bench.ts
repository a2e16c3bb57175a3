// UI figures: scan-Enter → package view usable, p50/p95 over 50 scans with 100,000 packages
// in the store, and the keyboard/scanner actions needed to receive a 3-line package after its scan.
// With dispositions: the actions for a 3-item package with dispositions and bin confirmation (keyboard and
// scanner alone), and the time from a condition key to the unit's disposition shown.
// Run alone: `node test/bench/ui-bench.ts` (after `npm run build`); BENCH_UI_PACKAGES sizes the store.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import autocannon from 'autocannon';
import { ApiClient } from '../../shared/api/client.ts';
import { openStore } from '../../electron/station/store/index.ts';
import { startStation } from '../support/station-process.ts';
import type { BenchRow } from './report.ts';
import { seed } from './store-bench.ts';

const PACKAGES = Number(process.env.BENCH_UI_PACKAGES ?? 100_000);
const SCANS = 50;
const UI_LINK = /^Open the station UI: (http:\/\/\S+)$/m;

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

export async function uiLink(output: () => { stdout: string }): Promise<string> {
  for (let i = 0; i < 400; i++) {
    const match = UI_LINK.exec(output().stdout);
    if (match?.[1]) return match[1];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('The station printed no UI link.');
}

/** Milliseconds from the keydown of the scan's Enter to the package view showing that package. */
// Runs in the page (as source text: this file is type-checked without the DOM library).
const ARM_SCAN_TIMER = `(code) => new Promise((resolve) => {
  let start = 0;
  const onKey = (e) => { if (e.key === 'Enter') start = e.timeStamp; };
  window.addEventListener('keydown', onKey, true);
  const observer = new MutationObserver(() => {
    const shown = document.querySelector('[data-testid="tracking-number"]')?.textContent === code && document.querySelector('[data-testid="line-row"]');
    if (!shown || start === 0) return;
    observer.disconnect();
    window.removeEventListener('keydown', onKey, true);
    resolve(performance.now() - start);
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
})`;

/**
 * Milliseconds from the keydown of an item scan's Enter to its line row showing one unit here and
 * lying wholly inside the window (checked every frame: scrolling it into view mutates nothing).
 */
const ARM_ROW_TIMER = `(sku) => new Promise((resolve) => {
  let start = 0;
  const onKey = (e) => { if (e.key === 'Enter') start = e.timeStamp; };
  window.addEventListener('keydown', onKey, true);
  const check = () => {
    const row = document.querySelector('[data-sku="' + sku + '"]');
    const here = row?.querySelector('[data-testid="line-here"]')?.textContent;
    const box = row?.getBoundingClientRect();
    if (start !== 0 && here === '1' && box && box.top >= 0 && box.bottom <= window.innerHeight + 0.5) {
      window.removeEventListener('keydown', onKey, true);
      resolve(performance.now() - start);
    } else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})`;

async function timedItemScan(page: Page, sku: string): Promise<number> {
  await page.evaluate(`window.__rowTimer = (${ARM_ROW_TIMER})(${JSON.stringify(sku)}); 0`);
  await page.keyboard.type(`${sku}\n`);
  return Number(await page.evaluate('window.__rowTimer'));
}

/** Milliseconds from the keydown of the scan's Enter to the package view showing that package. */
async function timedScan(page: Page, tracking: string): Promise<number> {
  // Arm without awaiting the timer's promise (evaluate would wait for it).
  await page.evaluate(`window.__scanTimer = (${ARM_SCAN_TIMER})(${JSON.stringify(tracking)}); 0`);
  await page.keyboard.type(`${tracking}\n`);
  return Number(await page.evaluate('window.__scanTimer'));
}

/** Opens the UI link in `page` and signs the bench worker in by scanning the badge. */
export async function signedIn(page: Page, link: string): Promise<Page> {
  await page.goto(link);
  await page.getByTestId('scan-field').waitFor();
  await page.keyboard.type('BENCH-BADGE\n');
  await page.getByTestId('operator').getByText('Bench worker').waitFor();
  return page;
}

/** The integration's sustained rate while the dock scans (an integration is a noisy neighbour of the dock). */
const NOISY_RATE = 500;

/**
 * An integration at 500 requests/s against the same station: 70 % get-one of a random package, 20 % a
 * list page of every account's packages, 10 % a PATCH of a package's notes. With a station token,
 * which no rate limit slows down (an account token would be held to its 1,000 an hour).
 */
function startIntegration(origin: string, token: string): { stop(): Promise<autocannon.Result> } {
  const randomId = () => 1 + Math.floor(Math.random() * PACKAGES);
  const pathOf = (id: number) => `/api/v1/accounts/${1 + ((id - 1) % 4)}/return_packages/${id}`;
  let n = 0;
  let finish: (error: Error | null, result: autocannon.Result) => void = () => undefined;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    finish = (error, result) => (error ? reject(error) : resolve(result));
  });
  const instance = autocannon(
    {
      url: origin,
      connections: 16,
      overallRate: NOISY_RATE,
      duration: 600,
      headers: { authorization: `Bearer ${token}` },
      // Each connection cycles through these ten: a body is given here, where autocannon frames it.
      requests: [
        ...Array.from({ length: 7 }, () => ({ method: 'GET' as const, setupRequest: (r: autocannon.Request) => ({ ...r, path: pathOf(randomId()) }) })),
        ...Array.from({ length: 2 }, () => ({
          method: 'GET' as const,
          setupRequest: (r: autocannon.Request) => ({ ...r, path: `/api/v1/station/return_packages?status=received&sort=-updated_at&page=${1 + (n++ % 200)}` }),
        })),
        {
          method: 'PATCH' as const,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ notes: 'changed by an integration' }),
          setupRequest: (r: autocannon.Request) => ({ ...r, path: pathOf(randomId()) }),
        },
      ],
    },
    (error, result) => finish(error, result),
  );
  return {
    stop() {
      instance.stop();
      return finished;
    },
  };
}

/** What the integration got besides 2xx answers: each status code's count, and errors/timeouts. */
function refusals(result: autocannon.Result): string {
  const codes = Object.entries(result.statusCodeStats as Record<string, { count: number }>)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, stat]) => `${code}×${stat.count}`);
  if (result.errors + result.timeouts > 0) codes.push(`${result.errors} errors, ${result.timeouts} timeouts`);
  return codes.length ? codes.join(', ') : 'all 2xx';
}

interface Parcel {
  tracking: string;
  id: number;
  skus: string[];
  /** Each return line's SKU by its id, to tell the station's items apart. */
  skuOfLine: Map<number, string>;
}

/** Parcels for the disposition figures: receipts by keyboard and by scanner alone, the timed condition keys with and without a scanner framing. */
const DISPOSITION_PARCELS = 4;
/** The parcel received with a serial per unit (serialBench), after the disposition parcels. */
const SERIAL_PARCELS = 1;
/** Timed condition changes in each series (p50/p95 over these). */
const CONDITION_SAMPLES = 60;

/** The three units' condition keys and what the default rules (shared/dispositions.ts) make of each. */
const UNIT_PLAN = [
  { key: '2', label: 'Like new', disposition: 'restock', bin: 'RESTOCK' },
  { key: '3', label: 'Good', disposition: 'refurbish', bin: 'REFURB' },
  { key: '5', label: 'Damaged', disposition: 'liquidate', bin: 'LIQUIDATE' },
] as const;
type Unit = (typeof UNIT_PLAN)[number];

/**
 * Milliseconds from the keydown of `key` to the selected unit's condition shown in its line row and
 * to its disposition shown (the banner's data-disposition), each taken when the DOM changed (a
 * MutationObserver). The keydown's timeStamp is when the key was pressed, whichever listener runs
 * first, so the key capture's listener may change the DOM before this one sees the key.
 */
const ARM_CONDITION_TIMER = `({ key, sku, label, disposition }) => new Promise((resolve, reject) => {
  let start = 0, rowAt = 0, bannerAt = 0;
  const late = setTimeout(() => reject(new Error('key ' + key + ' was not shown as ' + label + ' / ' + disposition + ' within 10 s')), 10000);
  const done = () => {
    if (start === 0 || rowAt === 0 || bannerAt === 0) return;
    clearTimeout(late);
    observer.disconnect();
    window.removeEventListener('keydown', onKey, true);
    resolve({ row: rowAt - start, banner: bannerAt - start });
  };
  const onKey = (e) => { if (e.key === key && start === 0) { start = e.timeStamp; done(); } };
  const observer = new MutationObserver(() => {
    const now = performance.now();
    const cell = document.querySelector('[data-testid="line-row"][data-sku="' + sku + '"] td:last-child');
    if (rowAt === 0 && (cell?.textContent ?? '').startsWith(label)) rowAt = now;
    if (bannerAt === 0 && document.querySelector('[data-testid="disposition"]')?.getAttribute('data-disposition') === disposition) bannerAt = now;
    done();
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  window.addEventListener('keydown', onKey, true);
})`;

const banner = (page: Page, unit: Unit, put?: 'yes') =>
  page.locator(`[data-testid="disposition"][data-disposition="${unit.disposition}"][data-bin="${unit.bin}"]${put ? `[data-put="${put}"]` : ''}`).waitFor();

interface Samples {
  row: number[];
  banner: number[];
}

/**
 * On the open package with `sku` selected, sets its condition CONDITION_SAMPLES times, alternating
 * Like new (restock) and Good (refurbish) so that each change shows a new disposition, by `act`;
 * `armKey` is the key whose keydown starts the clock (null: the condition key itself).
 */
async function conditionSeries(page: Page, sku: string, armKey: string | null, act: (unit: Unit) => Promise<void>): Promise<Samples> {
  const [a, b] = UNIT_PLAN;
  await act(b);
  // Counted (the line row), not only previewed (the banner shows while a key is held).
  await page.locator(`[data-testid="line-row"][data-sku="${sku}"] td:last-child`).filter({ hasText: b.label }).waitFor();
  await banner(page, b);
  const samples: Samples = { row: [], banner: [] };
  for (let i = 0; i < CONDITION_SAMPLES; i++) {
    const unit = i % 2 === 0 ? a : b;
    const arm = { key: armKey ?? unit.key, sku, label: unit.label, disposition: unit.disposition };
    await page.evaluate(`window.__conditionTimer = (${ARM_CONDITION_TIMER})(${JSON.stringify(arm)}); 0`);
    await act(unit);
    const t = (await page.evaluate('window.__conditionTimer')) as { row: number; banner: number };
    samples.row.push(t.row);
    samples.banner.push(t.banner);
    // A person looks at the disposition before the next key.
    await new Promise((r) => setTimeout(r, 150));
  }
  return samples;
}

const p = (times: number[], n: number) =>
  percentile(
    [...times].sort((x, y) => x - y),
    n,
  );

/**
 * Whether every unit of `parcel` is on the station received with the disposition and bin the rules
 * give its condition (UNIT_PLAN, in SKU order) and its put confirmed; what differs otherwise.
 */
async function dispositionsOnStation(api: ApiClient, accountId: number, parcel: Parcel): Promise<string> {
  let problem = 'not read';
  for (let attempt = 0; attempt < 50; attempt++) {
    const pkg = await api.getPackage(accountId, parcel.id);
    const wrong = pkg.line_items.filter((li) => {
      const unit = UNIT_PLAN[parcel.skus.indexOf(parcel.skuOfLine.get(li.return_line_item_id ?? -1) ?? '')];
      return !unit || li.disposition !== unit.disposition || li.bin !== unit.bin || li.put_confirmed_at === null;
    });
    problem =
      pkg.status !== 'received'
        ? `package ${pkg.status}`
        : pkg.line_items.length !== 3
          ? `${pkg.line_items.length} units`
          : wrong.length
            ? `${wrong.length} units without their disposition, bin or put`
            : '';
    if (problem === '') return '';
    await new Promise((r) => setTimeout(r, 200));
  }
  return problem;
}

/**
 * The actions to receive a 3-item package with dispositions and bin confirmation, by
 * keyboard and by scanner alone (checked on the station), and the time from a condition key to the
 * disposition shown, beside the time to the condition shown in the line table (which existed before).
 */
async function dispositionBench(browser: Browser, page: Page, link: string, api: ApiClient, accountId: number, parcels: Parcel[]): Promise<BenchRow[]> {
  const [byKeys, byScans, timed, timedFramed] = parcels;
  if (!byKeys || !byScans || !timed || !timedFramed) throw new Error('no parcel');
  const target = 3 * 3 + 1;

  // Keyboard: item and bin scans are scanner reads, conditions are number keys, receive is F2.
  let actions = 0;
  await page.keyboard.type(`${byKeys.tracking}\n`);
  await page.getByTestId('tracking-number').getByText(byKeys.tracking).waitFor();
  for (const [i, sku] of byKeys.skus.entries()) {
    const unit = UNIT_PLAN[i] as Unit;
    await page.keyboard.type(`${sku}\n`);
    actions++;
    await page.locator(`[data-sku="${sku}"] [data-testid="line-here"]`).filter({ hasText: '1' }).waitFor();
    await page.keyboard.press(unit.key);
    actions++;
    // The banner shows the moment the key goes down (a preview: the key is held); the worker reads
    // the bin off the screen, puts the unit there and scans the bin: that scan confirms the key.
    await banner(page, unit);
    await new Promise((r) => setTimeout(r, 300));
    await page.keyboard.type(`${unit.bin}\n`);
    actions++;
    await page.locator(`[data-testid="line-row"][data-sku="${sku}"] td:last-child`).filter({ hasText: unit.label }).waitFor();
    await banner(page, unit, 'yes');
  }
  await page.keyboard.press('F2');
  actions++;
  await page.getByTestId('notice').getByText(`Received ${byKeys.tracking}`).waitFor();
  const keysProblem = await dispositionsOnStation(api, accountId, byKeys);

  // A scanner alone: command barcodes for the conditions and receive.
  let scans = 0;
  await page.keyboard.type(`${byScans.tracking}\n`);
  await page.getByTestId('tracking-number').getByText(byScans.tracking).waitFor();
  for (const [i, sku] of byScans.skus.entries()) {
    const unit = UNIT_PLAN[i] as Unit;
    await page.keyboard.type(`${sku}\n`);
    await page.keyboard.type(`RSCMD-COND-${unit.key}\n`);
    await banner(page, unit);
    await page.keyboard.type(`${unit.bin}\n`);
    scans += 3;
    await banner(page, unit, 'yes');
  }
  await page.keyboard.type('RSCMD-RECEIVE\n');
  scans++;
  await page.getByTestId('notice').getByText(`Received ${byScans.tracking}`).waitFor();
  const scansProblem = await dispositionsOnStation(api, accountId, byScans);

  // Condition key → disposition shown, at the dock's 1024×600. A lone digit is held: its disposition
  // shows at once (a preview) and Enter right behind it makes it count in the line row.
  const sku = timed.skus[0] ?? '';
  const dock = await signedIn(await browser.newPage({ viewport: { width: 1024, height: 600 } }), link);
  await dock.keyboard.type(`${timed.tracking}\n`);
  await dock.getByTestId('tracking-number').getByText(timed.tracking).waitFor();
  await dock.keyboard.type(`${sku}\n`);
  await dock.locator(`[data-sku="${sku}"] [data-testid="line-here"]`).filter({ hasText: '1' }).waitFor();
  const held = await conditionSeries(dock, sku, null, async (unit) => {
    await dock.keyboard.press(unit.key);
    await dock.keyboard.press('Enter');
  });
  // The same by a scanner alone: from the condition barcode's Enter.
  const barcode = await conditionSeries(dock, sku, 'Enter', (unit) => dock.keyboard.type(`RSCMD-COND-${unit.key}\n`));
  await dock.close();

  // With a scanner framing set (prefix Ctrl+B, suffix Enter) a lone key is typed by hand for
  // certain; it is held the same way (a code typed by hand starts with digits too).
  await api.updateStationSettings({ scanner: { prefix: 'Ctrl+B', suffix: 'Enter' } });
  const framedSku = timedFramed.skus[0] ?? '';
  const framedDock = await signedIn(await browser.newPage({ viewport: { width: 1024, height: 600 } }), link);
  let framed: Samples;
  try {
    await framedDock.keyboard.type(`${timedFramed.tracking}\n`);
    await framedDock.getByTestId('tracking-number').getByText(timedFramed.tracking).waitFor();
    await framedDock.keyboard.type(`${framedSku}\n`);
    await framedDock.locator(`[data-sku="${framedSku}"] [data-testid="line-here"]`).filter({ hasText: '1' }).waitFor();
    framed = await conditionSeries(framedDock, framedSku, null, async (unit) => {
      await framedDock.keyboard.press(unit.key);
      await framedDock.keyboard.press('Enter');
    });
  } finally {
    await framedDock.close();
    await api.updateStationSettings({ scanner: null });
  }

  const n = CONDITION_SAMPLES;
  const timedRows = (what: string, how: string, s: Samples): BenchRow[] => {
    const base = `${what} → condition shown in its line row, ${how} (${n} keys; baseline)`;
    return [
      { section: 'ui', name: base, p50_ms: p(s.row, 50), value: `p95 ${p(s.row, 95).toFixed(1)} ms` },
      {
        section: 'ui',
        name: `${what} → disposition shown, ${how} (${n} keys)`,
        p50_ms: p(s.banner, 50),
        value: `p95 ${p(s.banner, 95).toFixed(1)} ms`,
        baseline: base,
        target: 'p95 < 50 ms',
        ok: p(s.banner, 95) < 50,
      },
    ];
  };
  return [
    {
      section: 'ui',
      name: 'actions to receive a 3-item package with dispositions and bin confirmation after its scan',
      value: `${actions} (3 item scans, 3 condition keys, 3 bin scans, 1 receive key)${keysProblem ? ` — on the station: ${keysProblem}` : '; each unit on the station with its disposition, bin and put'}`,
      target: `≤ ${target} (per unit 1 item scan + 1 condition + 1 bin scan, + 1)`,
      ok: keysProblem === '' && actions <= target,
    },
    {
      section: 'ui',
      name: 'actions to receive a 3-item package with dispositions and bin confirmation after its scan, with a scanner alone',
      value: `${scans} scans (3 items, 3 condition barcodes, 3 bins, 1 receive barcode), no key${scansProblem ? ` — on the station: ${scansProblem}` : '; each unit on the station with its disposition, bin and put'}`,
      target: `≤ ${target} (as with the keyboard)`,
      ok: scansProblem === '' && scans <= target,
    },
    ...timedRows('condition key', 'scans told by speed (a lone key held: its disposition previewed at once, counted on the Enter right behind it)', held),
    ...timedRows('condition key', 'scanner framing set (held the same way, Enter right behind it)', framed),
    ...timedRows('condition barcode Enter', 'scanner alone', barcode),
  ];
}

/** Three IMEIs (15 digits, Luhn) for the serial parcel's units. */
const BENCH_IMEIS = ['490154203237518', '356938035643809', '860000000000017'];

/**
 * The actions to receive a 3-item package whose units each need their serial (an IMEI rule for the
 * parcel's SKUs), with dispositions and bin confirmation: per unit the item scan, its serial's scan,
 * its condition key and its bin's scan, then F2; checked on the station (received, each unit with its
 * serial, disposition, bin and put). The weight check is not on the dock yet: it adds no action here.
 */
async function serialBench(page: Page, api: ApiClient, accountId: number, parcel: Parcel | undefined): Promise<BenchRow> {
  if (!parcel) throw new Error('no parcel');
  const target = 13;
  await api.updateStationSettings({ serial_rules: [{ sku_pattern: parcel.skus[0]?.replace(/-A$/, '-*') ?? '', kind: 'imei' }] });
  let actions = 0;
  let problem = 'not read';
  try {
    // Every terminal takes a settings change within 5 s (its status poll).
    await new Promise((r) => setTimeout(r, 6000));
    await page.keyboard.type(`${parcel.tracking}\n`);
    await page.getByTestId('tracking-number').getByText(parcel.tracking).waitFor();
    for (const [i, sku] of parcel.skus.entries()) {
      const unit = UNIT_PLAN[i] as Unit;
      await page.keyboard.type(`${sku}\n`);
      actions++;
      await page.getByTestId('serial-prompt').waitFor();
      await page.keyboard.type(`${BENCH_IMEIS[i] ?? ''}\n`);
      actions++;
      await page.locator(`[data-testid="serial"][data-serial="${BENCH_IMEIS[i] ?? ''}"]`).waitFor();
      await page.keyboard.press(unit.key);
      actions++;
      await banner(page, unit);
      await new Promise((r) => setTimeout(r, 300));
      await page.keyboard.type(`${unit.bin}\n`);
      actions++;
      await banner(page, unit, 'yes');
    }
    await page.keyboard.press('F2');
    actions++;
    await page.getByTestId('notice').getByText(`Received ${parcel.tracking}`).waitFor();
    for (let attempt = 0; attempt < 50; attempt++) {
      const pkg = await api.getPackage(accountId, parcel.id);
      const serials = pkg.line_items.map((li) => li.serial).sort();
      problem =
        pkg.status !== 'received'
          ? `package ${pkg.status}`
          : JSON.stringify(serials) !== JSON.stringify([...BENCH_IMEIS].sort())
            ? `serials ${serials.join(', ')}`
            : pkg.line_items.some((li) => li.put_confirmed_at === null || !li.tags.includes(`serial:${li.serial ?? ''}`))
              ? 'a unit not put or without its serial tag'
              : '';
      if (problem === '') break;
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await api.updateStationSettings({ serial_rules: [] });
  }
  return {
    section: 'ui',
    name: 'actions to receive a 3-item package with serials, dispositions and bin confirmation after its scan (weight check not on the dock yet)',
    value: `${actions} (3 item scans, 3 serial scans, 3 condition keys, 3 bin scans, 1 receive key)${problem ? ` — on the station: ${problem}` : '; each unit on the station with its serial (and its serial: tag), disposition, bin and put'}`,
    target: `≤ ${target} (per unit 1 item scan + 1 serial scan + 1 condition + 1 bin scan, + 1; the weight check adds none: the parcel is on the scale)`,
    ok: problem === '' && actions <= target,
  };
}

export async function runUiBench(): Promise<BenchRow[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'returns-ui-bench-'));
  const seeding = await openStore({ dataDir });
  await seed(seeding, PACKAGES);
  // The store seed spreads packages over accounts 1–4; the station lists the accounts it has rows for.
  await seeding.write(async (t) => {
    for (const id of [1, 2, 3, 4]) await t.accounts.put({ id, name: `Account ${id}`, created_at: new Date().toISOString() });
  });
  await seeding.close();

  const station = await startStation({ dataDir, args: ['--demo'], timeoutMs: 60_000 });
  const executablePath = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
  const browser = await chromium.launch({
    ...(executablePath ? { executablePath } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  });
  try {
    const link = await uiLink(station.output);
    // The screen's link carries a terminal's token; making workers and returns is an administrator's.
    const api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
    const accountId = (await api.station()).accounts[0]?.id ?? 1;
    await api.createOperator({ name: 'Bench worker', badge_code: 'BENCH-BADGE' });
    const parcels: Parcel[] = [];
    // Parcel 0: keyboard receipt; 1…SCANS: timed scans; SCANS + 1: receipt by a scanner alone; then
    // the disposition parcels: receipts by keyboard and by scanner, and the timed condition keys.
    for (let i = 0; i < SCANS + 2 + DISPOSITION_PARCELS + SERIAL_PARCELS; i++) {
      const skus = ['A', 'B', 'C'].map((x) => `BENCH-${i}-${x}`);
      const ret = await api.createReturn({
        account_id: accountId,
        email: `bench-${i}@example.com`,
        receive_by: '2030-01-01',
        total_price: 30,
        currency: 'USD',
        weight: 1,
        weight_unit: 'kg',
        reason_of_return: 'Bench',
        length: 1,
        width: 1,
        height: 1,
        dimension_unit: 'cm',
        return_line_items: skus.map((sku) => ({ quantity: 1, unreceived_quantity: 1, name: sku, price: 10, currency: 'USD', merchant_sku: sku })),
      });
      const tracking = `BENCH${String(i).padStart(6, '0')}X`;
      const pkg = await api.createPackage(accountId, { return_id: ret.id, tracking_number: tracking, status: 'in_transit' });
      parcels.push({ tracking, id: pkg.id, skus, skuOfLine: new Map(ret.return_line_items.map((l) => [l.id, l.merchant_sku ?? ''])) });
    }

    const page = await signedIn(await browser.newPage(), link);

    const times: number[] = [];
    for (const parcel of parcels.slice(1, SCANS + 1)) {
      times.push(await timedScan(page, parcel.tracking));
      await page.keyboard.press('Escape');
      await page.getByRole('heading', { name: 'Ready for the next parcel' }).waitFor();
    }
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    const p95 = percentile(times, 95);

    // The same scans while an integration drives the API at a sustained 500 requests/s.
    // The integration has its own token, as a real one would (not the screen's).
    const integrationToken = (await api.createToken({ scope: 'station', name: 'bench integration' })).secret;
    const integration = startIntegration(station.origin, integrationToken);
    await new Promise((r) => setTimeout(r, 2000));
    const noisyTimes: number[] = [];
    for (const parcel of parcels.slice(1, SCANS + 1)) {
      noisyTimes.push(await timedScan(page, parcel.tracking));
      await page.keyboard.press('Escape');
      await page.getByRole('heading', { name: 'Ready for the next parcel' }).waitFor();
    }
    const noise = await integration.stop();
    noisyTimes.sort((a, b) => a - b);
    const noisyP95 = percentile(noisyTimes, 95);
    // The rate it kept over its whole run: autocannon's per-second average counts the last, partial second as a whole one.
    const noiseRate = noise.requests.total / noise.duration;

    // At a dock terminal's 1024×600: an item scan → its row visible, on the same parcels (opened again).
    const small = await signedIn(await browser.newPage({ viewport: { width: 1024, height: 600 } }), link);
    const rowTimes: number[] = [];
    for (const parcel of parcels.slice(1, SCANS + 1)) {
      await small.keyboard.type(`${parcel.tracking}\n`);
      await small.getByTestId('tracking-number').getByText(parcel.tracking).waitFor();
      rowTimes.push(await timedItemScan(small, parcel.skus[parcel.skus.length - 1] ?? ''));
      await small.keyboard.press('Escape');
      await small.getByRole('heading', { name: 'Ready for the next parcel' }).waitFor();
    }
    await small.close();
    rowTimes.sort((a, b) => a - b);

    // Receive a 3-line package after its scan, counting every action: a scanner read is one.
    const first = parcels[0];
    if (!first) throw new Error('no parcel');
    let actions = 0;
    await page.keyboard.type(`${first.tracking}\n`);
    await page.getByTestId('package-view').waitFor();
    for (const [i, sku] of first.skus.entries()) {
      await page.keyboard.type(`${sku}\n`);
      actions++;
      await page.locator(`[data-sku="${sku}"] [data-testid="line-here"]`).filter({ hasText: '1' }).waitFor();
      // A lone digit is held (its disposition previewed); the next scan, or F2, counts it.
      await page.keyboard.press(String(2 + i));
      actions++;
      await new Promise((r) => setTimeout(r, 300)); // a person looks before the next scan
    }
    // No bin was scanned: receiving asks once, a second F2 receives.
    await page.keyboard.press('F2');
    actions++;
    await page.getByTestId('notice').getByText('not put in their bins').waitFor();
    await page.keyboard.press('F2');
    actions++;
    await page.getByTestId('notice').getByText(`Received ${first.tracking}`).waitFor();
    const received = await api.getPackage(accountId, first.id);
    const ok =
      received.status === 'received' &&
      received.line_items
        .map((li) => li.condition)
        .sort()
        .join() === 'fair,good,like_new';
    // The issue's figure: a 3-item package in at most 10 actions, by keyboard or by scanner.
    const target = 10;

    // The same receipt with a handheld scanner alone: command barcodes for the conditions and receive.
    const last = parcels[SCANS + 1];
    if (!last) throw new Error('no parcel');
    let scans = 0;
    await page.keyboard.type(`${last.tracking}\n`);
    await page.getByTestId('tracking-number').getByText(last.tracking).waitFor();
    for (const [i, sku] of last.skus.entries()) {
      await page.keyboard.type(`${sku}\n`);
      await page.keyboard.type(`RSCMD-COND-${2 + i}\n`);
      scans += 2;
    }
    await page
      .locator(`[data-sku="${last.skus[2] ?? ''}"]`)
      .filter({ hasText: 'Fair' })
      .waitFor();
    await page.keyboard.type('RSCMD-RECEIVE\n');
    scans++;
    await page.getByTestId('notice').getByText('not put in their bins').waitFor();
    await page.keyboard.type('RSCMD-RECEIVE\n');
    scans++;
    await page.getByTestId('notice').getByText(`Received ${last.tracking}`).waitFor();
    const byScanner = await api.getPackage(accountId, last.id);
    const scannerOk = byScanner.status === 'received' && byScanner.line_items.length === 3 && byScanner.line_items.every((li) => li.condition !== null);

    const dispositions = await dispositionBench(browser, page, link, api, accountId, parcels.slice(SCANS + 2, SCANS + 2 + DISPOSITION_PARCELS));
    const serials = await serialBench(page, api, accountId, parcels.at(-1));

    return [
      {
        section: 'ui',
        name: `scan Enter → package view usable (${PACKAGES.toLocaleString('en')} packages, ${SCANS} scans)`,
        p50_ms: p50,
        value: `p95 ${p95.toFixed(1)} ms`,
        target: 'p95 < 100 ms',
        ok: p95 < 100,
      },
      {
        section: 'ui',
        name: `scan Enter → package view usable while an integration runs ${NOISY_RATE} requests/s (${SCANS} scans)`,
        p50_ms: percentile(noisyTimes, 50),
        value: `p95 ${noisyP95.toFixed(1)} ms; the integration got ${noiseRate.toFixed(0)} requests/s (${refusals(noise)}), p99 ${noise.latency.p99} ms`,
        baseline: `scan Enter → package view usable (${PACKAGES.toLocaleString('en')} packages, ${SCANS} scans)`,
        target: 'p95 < 100 ms',
        ok: noisyP95 < 100 && noiseRate >= NOISY_RATE * 0.9,
      },
      {
        section: 'ui',
        name: `item scan Enter → its row visible at 1024×600 (${SCANS} scans)`,
        p50_ms: percentile(rowTimes, 50),
        value: `p95 ${percentile(rowTimes, 95).toFixed(1)} ms`,
        baseline: `scan Enter → package view usable (${PACKAGES.toLocaleString('en')} packages, ${SCANS} scans)`,
        target: 'p95 < 100 ms',
        ok: percentile(rowTimes, 95) < 100,
      },
      {
        section: 'ui',
        name: 'actions to receive a 3-line package after its scan',
        value: `${actions} (3 item scans, 3 condition keys, F2 asked about the bins not put, F2 again)${ok ? '' : ' — receipt incomplete'}`,
        target: `≤ ${target}`,
        ok: ok && actions <= target,
      },
      {
        section: 'ui',
        name: 'actions to receive a 3-line package after its scan, with a scanner alone',
        value: `${scans} scans (3 items, 3 condition barcodes, Receive asked about the bins not put, Receive again), no key${scannerOk ? '' : ' — receipt incomplete'}`,
        target: `≤ ${target} (as with the keyboard)`,
        ok: scannerOk && scans <= target,
      },
      ...dispositions,
      serials,
    ];
  } finally {
    await browser.close();
    await station.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runUiBench();
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
}
