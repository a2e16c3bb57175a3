import { create } from 'zustand';
import type { DockDay } from '#shared/api/dock-day.ts';
import { api } from '../api/station-api.ts';
import { describeError } from '../api/describe-error.ts';
import { readSetting, writeSetting } from '../state/settings.ts';

/** The supervisor's view state: which day, how long a parcel may wait, and the station's answer. */
interface DockDayState {
  /** YYYY-MM-DD; '' = today. */
  date: string;
  waitingMinutes: number;
  day: DockDay | null;
  error: string | null;
  loading: boolean;
  setDate(date: string): void;
  setWaitingMinutes(minutes: number): void;
  load(): Promise<void>;
  /** Downloads the day's receipts as a CSV file (the API needs the token, so not a plain link). */
  exportCsv(): Promise<void>;
}

const WAITING_SETTING = 'supervisor.waiting-minutes';

function storedWaitingMinutes(): number {
  const value = Number(readSetting(WAITING_SETTING, '60'));
  return Number.isInteger(value) && value >= 1 && value <= 10_080 ? value : 60;
}

export const useDockDay = create<DockDayState>()((set, get) => ({
  date: '',
  waitingMinutes: storedWaitingMinutes(),
  day: null,
  error: null,
  loading: false,
  setDate(date) {
    set({ date });
    void get().load();
  },
  setWaitingMinutes(minutes) {
    writeSetting(WAITING_SETTING, String(minutes));
    set({ waitingMinutes: minutes });
    void get().load();
  },
  async load() {
    const { date, waitingMinutes } = get();
    set({ loading: true });
    try {
      const day = await api().dockDay({ ...(date ? { date } : {}), waiting_minutes: waitingMinutes });
      // A slower answer for an earlier choice must not replace the newer one.
      if (get().date === date && get().waitingMinutes === waitingMinutes) set({ day, error: null });
    } catch (error) {
      set({ error: describeError(error) });
    } finally {
      set({ loading: false });
    }
  },
  async exportCsv() {
    const { date, day } = get();
    try {
      const csv = await api().dockDayReceiptsCsv(date ? { date } : {});
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `receipts-${day?.date ?? (date || 'today')}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      set({ error: describeError(error) });
    }
  },
}));
