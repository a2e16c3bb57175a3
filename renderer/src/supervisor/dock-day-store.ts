import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { ApiClient } from '#shared/api/client.ts';
import type { DockDay } from '#shared/api/dock-day.ts';
import { describeError } from '../api/describe-error.ts';
import { readSetting, writeSetting } from '../state/settings.ts';

/** What the supervisor's view asks of the station. */
export type DockDayClient = Pick<ApiClient, 'dockDay' | 'dockDayReceiptsCsv'>;

/** The supervisor's view state: which day, how long a parcel may wait, and the station's answer. */
export interface DockDayState {
  /** YYYY-MM-DD; '' = today. */
  date: string;
  waitingMinutes: number;
  day: DockDay | null;
  error: string | null;
  loading: boolean;
  setDate(date: string): void;
  setWaitingMinutes(minutes: number): void;
  load(): Promise<void>;
  /** Saves the day's receipts as a CSV file (the API needs the token, so not a plain link). */
  exportCsv(): Promise<void>;
}

const WAITING_SETTING = 'supervisor.waiting-minutes';

function storedWaitingMinutes(): number {
  const value = Number(readSetting(WAITING_SETTING, '60'));
  return Number.isInteger(value) && value >= 1 && value <= 10_080 ? value : 60;
}

/** Hands a file to the person (the page's: a browser download). */
export type SaveFile = (name: string, text: string, type: string) => void;

export function createDockDayStore(client: DockDayClient, saveFile: SaveFile): UseBoundStore<StoreApi<DockDayState>> {
  return create<DockDayState>()((set, get) => ({
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
        const day = await client.dockDay({ ...(date ? { date } : {}), waiting_minutes: waitingMinutes });
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
        const csv = await client.dockDayReceiptsCsv(date ? { date } : {});
        saveFile(`receipts-${day?.date ?? (date || 'today')}.csv`, csv, 'text/csv');
      } catch (error) {
        set({ error: describeError(error) });
      }
    },
  }));
}
