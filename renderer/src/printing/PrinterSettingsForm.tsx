import { useState, type FormEvent } from 'react';
import type { LabelSettings } from '#shared/api/printing.ts';
import { pageClient } from '../api/station-api.ts';
import { useNav } from '../state/nav-store.ts';
import { useStationSettings } from '../state/station-settings.ts';
import { openPdfInBrowser } from './pdf-view.ts';
import { printerForm, printerFromForm, testPrint, type PrinterForm } from './printing.ts';

/**
 * "Printer and labels" of the station settings: where labels print (a network label printer, a
 * system printer of the desktop app, or the browser), the package slip, a test print and the way to
 * the print queue. Kept by the station for all its terminals; `say` reports what an action did.
 */
export function PrinterSettingsForm({ labels, message, say }: { labels: LabelSettings; message: string | null; say: (message: string | null) => void }) {
  const [form, setForm] = useState<PrinterForm>(() => printerForm(labels.printer));
  const [slip, setSlip] = useState(labels.package_slip);
  // The message is the box's: a saved change re-keys this form with what the station holds.
  const setMessage = say;
  const edit = (change: Partial<PrinterForm>) => setForm((f) => ({ ...f, ...change }));

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const read = printerFromForm(form);
    if ('problem' in read) return setMessage(read.problem);
    const refused = await useStationSettings.getState().change({ labels: { printer: read.printer, package_slip: slip } });
    setMessage(refused ?? 'Printer saved: labels print there from now on (waiting ones too).');
  };
  const test = async () => {
    setMessage('Test print…');
    setMessage((await testPrint(pageClient, useStationSettings.getState().labels.printer, openPdfInBrowser)).message);
  };

  return (
    <form onSubmit={(e) => void save(e)} aria-label="Printer and labels" data-testid="printer-settings">
      <fieldset className="printer-kind">
        <legend>Printer and labels</legend>
        <label>
          <input type="radio" name="printer-kind" value="zpl_tcp" checked={form.kind === 'zpl_tcp'} onChange={() => edit({ kind: 'zpl_tcp' })} /> Network label
          printer (ZPL)
        </label>
        <label>
          <input type="radio" name="printer-kind" value="system" checked={form.kind === 'system'} onChange={() => edit({ kind: 'system' })} /> System printer
          (desktop app)
        </label>
        <label>
          <input type="radio" name="printer-kind" value="browser" checked={form.kind === 'browser'} onChange={() => edit({ kind: 'browser' })} /> Browser (PDF)
        </label>
      </fieldset>
      {form.kind === 'zpl_tcp' && (
        <div className="printer-address">
          <label>
            Host or IP <input data-testid="printer-host" value={form.host} onChange={(e) => edit({ host: e.target.value })} maxLength={253} />
          </label>
          <label>
            Port{' '}
            <input data-testid="printer-port" value={form.port} onChange={(e) => edit({ port: e.target.value })} inputMode="numeric" maxLength={5} size={5} />
          </label>
        </div>
      )}
      {form.kind === 'system' && (
        <label>
          System printer name (empty: the default){' '}
          <input data-testid="printer-name" value={form.name} onChange={(e) => edit({ name: e.target.value })} maxLength={255} />
        </label>
      )}
      <label>
        <input type="checkbox" data-testid="package-slip" checked={slip} onChange={(e) => setSlip(e.target.checked)} /> Print a package slip with each package’s
        labels
      </label>
      <div className="button-row">
        <button type="submit" className="btn btn-small" data-testid="printer-save">
          Save printer
        </button>
        <button type="button" className="btn btn-small" data-testid="printer-test" onClick={() => void test()}>
          Test print
        </button>
        <button type="button" className="btn btn-small" data-testid="print-queue-link" onClick={() => useNav.getState().go('print-queue')}>
          Print queue <kbd>Alt+L</kbd>
        </button>
      </div>
      {message && (
        <p role="status" data-testid="printer-state">
          {message}
        </p>
      )}
    </form>
  );
}
