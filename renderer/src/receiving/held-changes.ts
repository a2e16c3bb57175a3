import { useHeldScans } from './held-scans.ts';
import { usePackage, usePending } from './page-package.ts';

/**
 * What this page holds for the station, counted as the header says it offline ("held N changes"): each
 * package with unsent work, each photo waiting to upload, each parcel scan held.
 */
export function useHeldChanges(): number {
  const packages = usePending((s) => s.entries.length);
  const photos = usePackage((s) => s.uploads.filter((u) => u.state !== 'done' && u.state !== 'failed').length);
  const scans = useHeldScans((s) => s.scans.length);
  return packages + photos + scans;
}
