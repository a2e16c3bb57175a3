import { create } from 'zustand';
import { z } from 'zod';
import type { LookupPackage } from '#shared/api/station.ts';
import { PACKAGE_STATUSES } from '#shared/package-status.ts';
import { readSetting, writeSetting } from '../state/settings.ts';

/*
 * Packages the worker opened and left without receiving them (another parcel was scanned, or Esc):
 * listed on the scan screen, newest first, one key away from being reopened. Kept in this station's
 * localStorage so a reload of the page does not forget them.
 */

const LeftPackageSchema = z.object({
  account_id: z.number().int(),
  id: z.number().int(),
  return_id: z.number().int(),
  status: z.enum(PACKAGE_STATUSES),
  tracking_number: z.string(),
});
export type LeftPackage = Pick<LookupPackage, 'account_id' | 'id' | 'return_id' | 'status' | 'tracking_number'>;

const SETTING = 'in-progress';
const MAX_LISTED = 9;

function stored(): LeftPackage[] {
  try {
    return z.array(LeftPackageSchema).parse(JSON.parse(readSetting(SETTING) ?? '[]'));
  } catch {
    return [];
  }
}

interface InProgressState {
  packages: LeftPackage[];
  /** Remembers a package left unfinished (it moves to the top of the list). */
  leave(pkg: LeftPackage): void;
  /** Forgets a package: opened again, received or cancelled. */
  forget(accountId: number, packageId: number): void;
}

export const useInProgress = create<InProgressState>()((set, get) => {
  const save = (packages: LeftPackage[]) => {
    writeSetting(SETTING, JSON.stringify(packages));
    set({ packages });
  };
  return {
    packages: stored(),
    leave(pkg) {
      const others = get().packages.filter((p) => !(p.account_id === pkg.account_id && p.id === pkg.id));
      const { account_id, id, return_id, status, tracking_number } = pkg;
      save([{ account_id, id, return_id, status, tracking_number }, ...others].slice(0, MAX_LISTED));
    },
    forget(accountId, packageId) {
      const packages = get().packages;
      if (packages.some((p) => p.account_id === accountId && p.id === packageId))
        save(packages.filter((p) => !(p.account_id === accountId && p.id === packageId)));
    },
  };
});
