import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { ApiClient } from '#shared/api/client.ts';
import type { PackageSlip, PrintJob, UnitLabel } from '#shared/api/printing.ts';
import { describeError } from '../api/describe-error.ts';

/*
 * The print queue as the station keeps it (docs/operator-guide.md, Printers and labels): the jobs
 * still to print — waiting (maybe after failed tries: the last error and the next try) or being
 * sent — and the last ones done. A waiting job can be cancelled; a job being sent or printed cannot.
 */

export interface PrintQueueState {
  /** Waiting and being sent, newest first. */
  pending: PrintJob[];
  /** The latest printed or cancelled jobs, newest first. */
  recent: PrintJob[];
  /** Why the queue could not be read or a job not cancelled, or null. */
  error: string | null;
  /** What the last action did, for the status line. */
  message: string | null;
  loaded: boolean;
  load(): Promise<void>;
  /** Cancels a waiting job, then reads the queue again. */
  cancel(job: PrintJob): Promise<void>;
}

export type PrintQueueStore = UseBoundStore<StoreApi<PrintQueueState>>;
export type PrintQueueClient = Pick<ApiClient, 'listPrintJobs' | 'cancelPrintJob'>;

const RECENT = 10;

export function createPrintQueueStore(client: PrintQueueClient): PrintQueueStore {
  return create<PrintQueueState>()((set, get) => ({
    pending: [],
    recent: [],
    error: null,
    message: null,
    loaded: false,
    async load() {
      try {
        const [pending, recent] = await Promise.all([
          client.listPrintJobs({ state: ['waiting', 'sending'], per_page: 100 }),
          client.listPrintJobs({ state: ['printed', 'cancelled'], per_page: RECENT }),
        ]);
        set({ pending: pending.data, recent: recent.data, error: null, loaded: true });
      } catch (error) {
        set({ error: describeError(error) });
      }
    },
    async cancel(job) {
      try {
        await client.cancelPrintJob(job.id);
        set({ message: `Cancelled: ${jobTitle(job)} (job ${job.id}).`, error: null });
      } catch (error) {
        set({ error: describeError(error), message: null });
      }
      await get().load();
    },
  }));
}

const isSlip = (label: UnitLabel | PackageSlip): label is PackageSlip => 'units' in label;

/** What a job prints, in words: "Unit RS-1-42 · SKU-1", "Package slip 1Z…", "Test label". */
export function jobTitle(job: PrintJob): string {
  if (job.kind === 'test') return 'Test label';
  if (isSlip(job.label)) return `Package slip ${job.label.tracking_number}`;
  const sku = job.label.sku ? ` · ${job.label.sku}` : '';
  return `${job.reprint_of !== null ? 'Reprint of unit' : 'Unit'} ${job.label.unit_id}${sku}`;
}

/** "in 12 s", "in 3 min", "now": when a waiting job is tried next, from `now`. */
export function nextTryText(job: PrintJob, now: number): string {
  if (job.state === 'sending') return 'being sent';
  if (job.next_attempt_at === null) return '—';
  const seconds = Math.round((Date.parse(job.next_attempt_at) - now) / 1000);
  if (seconds <= 0) return 'now';
  if (seconds < 90) return `in ${seconds} s`;
  return `in ${Math.round(seconds / 60)} min`;
}

/** A job's state in words. */
export function jobStateText(job: PrintJob): string {
  switch (job.state) {
    case 'waiting':
      return job.attempts > 0 ? `Failed ${job.attempts}× — waiting` : 'Waiting';
    case 'sending':
      return 'Sending';
    case 'printed':
      return `Printed${job.printed_on ? ` on ${job.printed_on}` : ''}`;
    case 'cancelled':
      return 'Cancelled';
    case 'in_browser':
      return 'Opened in the browser';
  }
}
