import type { ApiClient } from '#shared/api/client.ts';
import { PrinterSettingSchema, type PrintJob, type PrinterSetting } from '#shared/api/printing.ts';
import { describeError } from '../api/describe-error.ts';
import type { Draft } from '../inspect/drafts.ts';

/*
 * Printing from the UI (docs/operator-guide.md, Printers and labels): the printer
 * form of the station settings, a test print and a unit's label (print or reprint). With the browser
 * as the printer nothing is queued: the label's PDF is fetched with this screen's token and handed to
 * `openPdf` (a blob the browser shows and prints). Plain functions: the screens and keys call them,
 * tests run them against a real station.
 */

export type PrinterKind = PrinterSetting['kind'];

/** The printer fields as typed (the port as text). */
export interface PrinterForm {
  kind: PrinterKind;
  host: string;
  port: string;
  name: string;
}

export function printerForm(printer: PrinterSetting): PrinterForm {
  return {
    kind: printer.kind,
    host: printer.kind === 'zpl_tcp' ? printer.host : '',
    port: printer.kind === 'zpl_tcp' ? String(printer.port) : '9100',
    name: printer.kind === 'system' ? (printer.name ?? '') : '',
  };
}

/** The printer setting the form describes, or why it cannot be (checked again by the station). */
export function printerFromForm(form: PrinterForm): { printer: PrinterSetting } | { problem: string } {
  let candidate: unknown;
  if (form.kind === 'zpl_tcp') {
    const port = form.port.trim() === '' ? 9100 : Number(form.port.trim());
    if (!Number.isInteger(port) || port < 1 || port > 65535) return { problem: 'The port is a whole number from 1 to 65535 (label printers: 9100).' };
    if (form.host.trim() === '') return { problem: 'Type the label printer’s host name or IP address.' };
    candidate = { kind: 'zpl_tcp', host: form.host.trim(), port };
  } else if (form.kind === 'system') candidate = { kind: 'system', name: form.name.trim() === '' ? null : form.name.trim() };
  else candidate = { kind: 'browser' };
  const parsed = PrinterSettingSchema.safeParse(candidate);
  if (!parsed.success) return { problem: parsed.error.issues[0]?.message ?? 'Not a printer the station can use.' };
  return { printer: parsed.data };
}

/** "the label printer 10.0.0.5:9100", "the system printer Zebra", "the browser". */
export function printerName(printer: PrinterSetting): string {
  if (printer.kind === 'zpl_tcp') return `the label printer ${printer.host}:${printer.port}`;
  if (printer.kind === 'system') return printer.name ? `the system printer ${printer.name}` : 'the system’s default printer';
  return 'the browser';
}

/** Shows a PDF so the browser can print it. */
export type OpenPdf = (pdf: Blob, title: string) => void;

export interface PrintOutcome {
  ok: boolean;
  message: string;
}

export type PrintingClient = Pick<ApiClient, 'createUnitLabel' | 'unitLabelPdf' | 'createTestPrint' | 'testLabelPdf'>;

/** Test print on the station's printer: queued for a printer, shown as a PDF for the browser. */
export async function testPrint(client: PrintingClient, printer: PrinterSetting, openPdf: OpenPdf): Promise<PrintOutcome> {
  try {
    if (printer.kind === 'browser') {
      openPdf(await client.testLabelPdf(), 'Test label');
      return { ok: true, message: 'Test label opened as a PDF: print it from the browser.' };
    }
    const job = await client.createTestPrint();
    return { ok: true, message: `Test label queued for ${printerName(printer)} (job ${job.id}): it prints when the printer answers — see the print queue.` };
  } catch (error) {
    return { ok: false, message: describeError(error) };
  }
}

/** The station's line item id of a draft the station made (`li-<id>`), else null. */
export function lineItemIdOf(draft: Pick<Draft, 'key'>): number | null {
  const match = /^li-(\d+)$/.exec(draft.key);
  return match ? Number(match[1]) : null;
}

export interface UnitTarget {
  accountId: number;
  packageId: number;
  draft: Pick<Draft, 'key' | 'unit_id'>;
  /** The unit's line item when its draft key does not carry it (a unit made on this screen). */
  lineItemId?: number | null;
  /** The worker named on the label (null: the package's processor). */
  operatorId?: number | null;
}

/** A job that will still be sent: asking again would print the label twice. */
const PENDING: readonly PrintJob['state'][] = ['waiting', 'sending'];

/**
 * Prints the unit's label, or prints it again: a label already waiting is not asked for twice; one
 * printed (or cancelled, or shown in a browser) is reprinted. With the browser as the printer, the
 * label's PDF is opened.
 */
export async function printUnitLabel(client: PrintingClient, target: UnitTarget, printer: PrinterSetting, openPdf: OpenPdf): Promise<PrintOutcome> {
  const lineItemId = target.lineItemId ?? lineItemIdOf(target.draft);
  const unitId = target.draft.unit_id;
  if (unitId === null || lineItemId === null)
    return { ok: false, message: 'This item has no unit id yet: it gets one with its disposition, once the station has saved it.' };
  try {
    const body = { operator_id: target.operatorId ?? null };
    if (printer.kind === 'browser') {
      // Recorded on the station first (a job handed to the browser): the unit is labelled there, so
      // every terminal keeps it from −, and the station refuses to remove it.
      await client.createUnitLabel(target.accountId, target.packageId, lineItemId, { ...body, reprint: false });
      openPdf(await client.unitLabelPdf(target.accountId, target.packageId, lineItemId), `Label ${unitId}`);
      return { ok: true, message: `Label of ${unitId} opened as a PDF: print it from the browser.` };
    }
    const first = await client.createUnitLabel(target.accountId, target.packageId, lineItemId, { ...body, reprint: false });
    if (PENDING.includes(first.state)) return { ok: true, message: `Label of ${unitId} waiting for ${printerName(printer)} (job ${first.id}).` };
    const again = await client.createUnitLabel(target.accountId, target.packageId, lineItemId, { ...body, reprint: true });
    return { ok: true, message: `Reprint of ${unitId} queued for ${printerName(printer)} (job ${again.id}).` };
  } catch (error) {
    return { ok: false, message: describeError(error) };
  }
}
