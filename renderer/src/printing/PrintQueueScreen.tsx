import { useEffect, useState } from 'react';
import type { PrintJob } from '#shared/api/printing.ts';
import { useStationSettings } from '../state/station-settings.ts';
import { usePrintQueue } from './page-print-queue.ts';
import { jobStateText, jobTitle, nextTryText } from './print-queue-store.ts';
import { printerName } from './printing.ts';

/** How often the screen reads the queue again while it is shown. */
const POLL_MS = 3000;

function JobRow({ job, now }: { job: PrintJob; now: number }) {
  const cancel = usePrintQueue((s) => s.cancel);
  return (
    // data-label names a cell where the job is a card (below a dock's width, the table's head hidden).
    <tr data-testid="print-job" className={job.last_error ? 'print-failed' : undefined}>
      <td data-label="Job">{job.id}</td>
      <td className="job-title">{jobTitle(job)}</td>
      <td>{jobStateText(job)}</td>
      <td className="print-error" data-none={job.last_error ? undefined : ''}>
        {job.last_error ?? '—'}
      </td>
      <td data-label={job.state === 'waiting' || job.state === 'sending' ? 'Next try' : 'Printed'}>
        {job.state === 'waiting' || job.state === 'sending' ? nextTryText(job, now) : job.printed_at ? new Date(job.printed_at).toLocaleTimeString() : '—'}
      </td>
      <td className="job-action">
        {job.state === 'waiting' && (
          <button type="button" className="btn btn-small" aria-label={`Cancel job ${job.id}: ${jobTitle(job)}`} onClick={() => void cancel(job)}>
            Cancel
          </button>
        )}
      </td>
    </tr>
  );
}

function JobTable({ jobs, caption, now }: { jobs: PrintJob[]; caption: string; now: number }) {
  return (
    <table className="print-jobs">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Job</th>
          <th scope="col">Label</th>
          <th scope="col">State</th>
          <th scope="col">Last error</th>
          <th scope="col">Next try / printed</th>
          <th scope="col">
            <span className="sr-only">Action</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {jobs.map((job) => (
          <JobRow key={job.id} job={job} now={now} />
        ))}
      </tbody>
    </table>
  );
}

/**
 * The print queue (Alt+L): labels waiting for the printer — with why the last try failed and when
 * the next one is — and the last ones printed. A waiting job can be cancelled. Jobs survive an
 * offline printer and a restart of the station; a printed one is never sent again.
 */
export function PrintQueueScreen() {
  const pending = usePrintQueue((s) => s.pending);
  const recent = usePrintQueue((s) => s.recent);
  const error = usePrintQueue((s) => s.error);
  const message = usePrintQueue((s) => s.message);
  const loaded = usePrintQueue((s) => s.loaded);
  const printer = useStationSettings((s) => s.labels.printer);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const read = () => {
      setNow(Date.now());
      void usePrintQueue.getState().load();
    };
    read();
    const timer = setInterval(read, POLL_MS);
    return () => clearInterval(timer);
  }, []);

  return (
    <section className="print-queue" aria-labelledby="print-queue-title" data-testid="print-queue">
      <h2 id="print-queue-title">Print queue</h2>
      <p>
        Labels print on {printerName(printer)}
        {printer.kind === 'browser'
          ? ': nothing is queued — each label opens as a PDF (choose a printer in Settings).'
          : '. A label waits here while the printer is off or out of reach and is sent when it answers.'}
      </p>
      {error && (
        <p role="alert" className="print-error" data-testid="print-queue-error">
          {error}
        </p>
      )}
      {message && <p role="status">{message}</p>}
      {loaded && pending.length === 0 ? (
        <p data-testid="print-queue-empty">Nothing waits to print.</p>
      ) : (
        <JobTable jobs={pending} caption="Waiting to print" now={now} />
      )}
      {recent.length > 0 && <JobTable jobs={recent} caption="Last printed or cancelled" now={now} />}
    </section>
  );
}
