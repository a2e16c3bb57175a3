import { create } from 'zustand';
import { z } from 'zod';
import { normaliseCode } from '#shared/barcode.ts';
import { readSetting, writeSetting } from '../state/settings.ts';

/*
 * Parcels scanned while the station could not be reached (a handheld's Wi-Fi down): the station alone
 * knows which package a tracking number is, so the scan is held, not guessed at. Kept in this page's
 * local storage (a reload keeps them) until each is opened: the first when the station answers and the
 * worker is free (release-held-scans.ts), the others from the scan screen's list or by scanning them
 * again. Taking one removes it first, so a held scan opens once. See docs/decisions/ui-outbox.md.
 */

const HeldScanSchema = z.object({
  code: z.string().min(1).max(200),
  /** When it was scanned (ISO 8601): the list says it. */
  heldAt: z.string(),
});
export type HeldScan = z.infer<typeof HeldScanSchema>;

const SETTING = 'held-scans';
/** A page keeps at most this many: past it, a scan is refused in words rather than a list no one reads. */
export const MAX_HELD_SCANS = 50;

function stored(): HeldScan[] {
  try {
    return z
      .array(HeldScanSchema)
      .max(MAX_HELD_SCANS)
      .parse(JSON.parse(readSetting(SETTING) ?? '[]'));
  } catch {
    return [];
  }
}

interface HeldScansState {
  /** Oldest first. */
  scans: HeldScan[];
  /** Holds a scanned code: 'already' when it is held, 'full' when the page holds MAX_HELD_SCANS. */
  hold(code: string, at?: Date): 'held' | 'already' | 'full';
  /** Removes `code` from the held scans; false when it was not held. */
  take(code: string): boolean;
}

export const useHeldScans = create<HeldScansState>()((set, get) => {
  const save = (scans: HeldScan[]) => {
    writeSetting(SETTING, scans.length === 0 ? null : JSON.stringify(scans));
    set({ scans });
  };
  return {
    scans: stored(),
    hold(raw, at = new Date()) {
      const code = normaliseCode(raw);
      const scans = get().scans;
      if (scans.some((s) => s.code === code)) return 'already';
      if (scans.length >= MAX_HELD_SCANS) return 'full';
      save([...scans, { code, heldAt: at.toISOString() }]);
      return 'held';
    },
    take(raw) {
      const code = normaliseCode(raw);
      const scans = get().scans;
      if (!scans.some((s) => s.code === code)) return false;
      save(scans.filter((s) => s.code !== code));
      return true;
    },
  };
});
