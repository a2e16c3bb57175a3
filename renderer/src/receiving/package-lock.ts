import { notify } from '../state/feedback-store.ts';
import { lockReasonOf } from './package-store.ts';
import { usePackage } from './page-package.ts';

/** True (and says why, with the error tone) when the open package takes no changes now. */
export function refuseWhenLocked(): boolean {
  const reason = lockReasonOf(usePackage.getState());
  if (reason) notify('error', reason);
  return reason !== null;
}
