import { create } from 'zustand';
import type { LookupPackage, LookupReturn } from '#shared/api/station.ts';

/** What the last parcel scan found when it was not one package: several packages, or only returns. */
interface ScanState {
  code: string | null;
  packages: LookupPackage[];
  returns: LookupReturn[];
  /** Scans handled since the page opened (a test and bench probe, also shown to the worker). */
  handled: number;
  show(code: string, packages: LookupPackage[], returns: LookupReturn[]): void;
  clear(): void;
  count(): void;
}

export const useScan = create<ScanState>()((set, get) => ({
  code: null,
  packages: [],
  returns: [],
  handled: 0,
  show(code, packages, returns) {
    set({ code, packages, returns });
  },
  clear() {
    set({ code: null, packages: [], returns: [] });
  },
  count() {
    set({ handled: get().handled + 1 });
  },
}));
