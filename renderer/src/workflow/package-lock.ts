import { notify } from '../state/feedback-store.ts';
import { lockReasonOf, usePackage } from '../state/package-store.ts';

/** True (and says why, with the error tone) when the open package takes no changes now. */
export function refuseWhenLocked(): boolean {
  const reason = lockReasonOf(usePackage.getState());
  if (reason) notify('error', reason);
  return reason !== null;
}
