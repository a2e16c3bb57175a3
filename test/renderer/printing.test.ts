import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrinterSetting } from '../../shared/api/printing.ts';
import { createPrintQueueStore, jobStateText, jobTitle, nextTryText } from '../../renderer/src/printing/print-queue-store.ts';
import { lineItemIdOf, printerForm, printerFromForm, printUnitLabel, testPrint } from '../../renderer/src/printing/printing.ts';
import { createStationSettingsStore } from '../../renderer/src/state/station-settings.ts';
import { fakeZplPrinter, freePort, type FakeZplPrinter } from '../support/fake-zpl-printer.ts';
import { createPackage, createReturn, startStation, type TestStation } from '../api/support.ts';
import { StationCable } from './station-cable.ts';

/*
 * Printing from a terminal against a real station: the printer chosen in the
 * settings form, a test print (queued, or the PDF for the browser), a unit's label printed then
 * reprinted (never asked twice while it waits), and the print queue with an offline printer: the
 * waiting job shows its error and next try, and can be cancelled.
 */

const isPdf = async (blob: Blob) => new TextDecoder().decode(new Uint8Array(await blob.arrayBuffer()).slice(0, 5)) === '%PDF-';

describe('printing from a terminal', () => {
  let ts: TestStation;
  let printer: FakeZplPrinter;
  let unit: { accountId: number; packageId: number; draft: { key: string; unit_id: string | null } };
  beforeAll(async () => {
    ts = await startStation();
    printer = await fakeZplPrinter();
    const ret = await createReturn(ts.origin, ts.stationToken, { account_id: 1 });
    const pkg = await createPackage(ts.origin, ts.stationToken, 1, ret.id);
    const client = new StationCable(ts).client();
    const item = await client.createLineItem(1, pkg.id, { return_line_item_id: ret.return_line_items[0]?.id ?? null, condition: 'like_new' });
    expect(item.unit_id).toBeTruthy();
    unit = { accountId: 1, packageId: pkg.id, draft: { key: `li-${item.id}`, unit_id: item.unit_id ?? null } };
  }, 60_000);
  afterAll(async () => {
    await ts.close();
    await printer.down();
  });

  it('reads and checks the printer form', () => {
    expect(printerFromForm({ kind: 'zpl_tcp', host: ' 10.0.0.5 ', port: '9100', name: '' })).toEqual({
      printer: { kind: 'zpl_tcp', host: '10.0.0.5', port: 9100 },
    });
    expect(printerFromForm({ kind: 'zpl_tcp', host: '10.0.0.5', port: '0', name: '' })).toHaveProperty('problem');
    expect(printerFromForm({ kind: 'zpl_tcp', host: 'a b', port: '9100', name: '' })).toEqual({ problem: 'A host name or an IP address.' });
    expect(printerFromForm({ kind: 'system', host: '', port: '', name: '' })).toEqual({ printer: { kind: 'system', name: null } });
    expect(printerForm({ kind: 'system', name: 'Zebra' })).toMatchObject({ kind: 'system', name: 'Zebra', port: '9100' });
    expect(lineItemIdOf({ key: 'li-42' })).toBe(42);
    expect(lineItemIdOf({ key: 'new-3' })).toBeNull();
  });

  it("with the browser as the printer, opens the PDFs and queues nothing for a printer; a unit's label is recorded as handed to the browser", async () => {
    const client = new StationCable(ts).client();
    const opened: Array<{ title: string; pdf: boolean }> = [];
    const open = (pdf: Blob, title: string) => void isPdf(pdf).then((ok) => opened.push({ title, pdf: ok }));
    const browser: PrinterSetting = { kind: 'browser' };
    // A unit of its own (the tests below print `unit` on a label printer for the first time).
    const item = await client.createLineItem(1, unit.packageId, { condition: 'good' });
    const shown = { ...unit, draft: { key: `li-${item.id}`, unit_id: item.unit_id ?? null } };
    expect(await testPrint(client, browser, open)).toMatchObject({ ok: true });
    expect(await printUnitLabel(client, shown, browser, open)).toMatchObject({ ok: true });
    await new Promise((r) => setTimeout(r, 20));
    expect(opened).toEqual([
      { title: 'Test label', pdf: true },
      { title: `Label ${shown.draft.unit_id}`, pdf: true },
    ]);
    // The unit is labelled on the station (− is refused for it on every terminal); no printer is sent anything.
    expect((await client.listPrintJobs()).data.map((job) => [job.unit_id, job.state])).toEqual([[shown.draft.unit_id, 'in_browser']]);
    expect(await printUnitLabel(client, { ...unit, draft: { key: 'new-1', unit_id: null } }, browser, open)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/no unit id/),
    });
  });

  it('saves the printer in the station settings, test-prints and prints a unit once, then reprints it', async () => {
    const cable = new StationCable(ts);
    const client = cable.client();
    const settings = createStationSettingsStore(client);
    const form = printerFromForm({ kind: 'zpl_tcp', host: '127.0.0.1', port: String(printer.port), name: '' });
    if (!('printer' in form)) throw new Error(form.problem);
    expect(await settings.getState().change({ labels: { printer: form.printer, package_slip: true } })).toBeNull();
    expect(settings.getState().labels).toEqual({ printer: form.printer, package_slip: true });
    const chosen = settings.getState().labels.printer;
    const none = () => undefined;

    expect((await testPrint(client, chosen, none)).message).toMatch(/^Test label queued for the label printer 127\.0\.0\.1:\d+ \(job \d+\)/);
    await printer.waitForJobs(1);
    expect((await printUnitLabel(client, unit, chosen, none)).message).toMatch(/^Label of .+ waiting for the label printer/);
    const [, zpl] = await printer.waitForJobs(2);
    expect(zpl).toContain(unit.draft.unit_id);
    const queue = createPrintQueueStore(client);
    await vi_wait(async () => {
      await queue.getState().load();
      return queue.getState().pending.length === 0 && queue.getState().recent.length === 2;
    });
    expect(queue.getState().recent.map(jobStateText)).toEqual([expect.stringMatching(/^Printed on zpl_tcp/), expect.stringMatching(/^Printed on zpl_tcp/)]);
    // Printed once: the key asks for a reprint, which prints it again.
    expect((await printUnitLabel(client, unit, chosen, none)).message).toMatch(/^Reprint of .+ queued/);
    await printer.waitForJobs(3);
    await queue.getState().load();
    await vi_wait(async () => {
      await queue.getState().load();
      return queue.getState().recent.length === 3;
    });
    const [latest] = queue.getState().recent;
    if (!latest) throw new Error('no job');
    expect(jobTitle(latest)).toMatch(new RegExp(`^Reprint of unit ${unit.draft.unit_id}`));
  });

  it('shows a job waiting for an offline printer with its error and next try, asks for it only once, and cancels it', async () => {
    const client = new StationCable(ts).client();
    const offline: PrinterSetting = { kind: 'zpl_tcp', host: '127.0.0.1', port: await freePort() };
    await client.updateStationSettings({ labels: { printer: offline } });
    const first = await printUnitLabel(client, unit, offline, () => undefined);
    expect(first.message).toMatch(/^Reprint of .+ queued/);
    // Waiting: asking again does not queue a second one.
    expect((await printUnitLabel(client, unit, offline, () => undefined)).message).toMatch(/^Label of .+ waiting for/);
    const queue = createPrintQueueStore(client);
    await vi_wait(async () => {
      await queue.getState().load();
      return queue.getState().pending[0]?.last_error != null;
    });
    const [job] = queue.getState().pending;
    if (!job) throw new Error('no waiting job');
    expect(queue.getState().pending).toHaveLength(1);
    expect(jobStateText(job)).toMatch(/^Failed \d+× — waiting$/);
    expect(nextTryText(job, Date.parse(job.updated_at))).toMatch(/^(now|in \d+ (s|min))$/);
    await queue.getState().cancel(job);
    expect(queue.getState()).toMatchObject({ pending: [], error: null, message: `Cancelled: ${jobTitle(job)} (job ${job.id}).` });
    expect(queue.getState().recent[0]).toMatchObject({ id: job.id, state: 'cancelled' });
  });

  it('says the station cannot be reached when it cannot', async () => {
    const cable = new StationCable(ts);
    const queue = createPrintQueueStore(cable.client());
    cable.down = true;
    await queue.getState().load();
    expect(queue.getState().error).toMatch(/cannot be reached/);
    expect((await testPrint(cable.client(), { kind: 'browser' }, () => undefined)).ok).toBe(false);
  });
});

async function vi_wait(ok: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}
