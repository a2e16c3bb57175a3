import type { ReturnPackage } from '#shared/api/return-packages.ts';
import { weightFinding } from '#shared/api/weight-check.ts';
import { playOffWeightTone } from '../feedback/sound.ts';
import { useScale } from '../scale/scale-store.ts';
import { useSession } from '../session/session-store.ts';
import { notify } from '../state/feedback-store.ts';
import { useNav } from '../state/nav-store.ts';
import { useWeighing } from './weighing-store.ts';

/*
 * The dock's side of the weighing: a package opened by a scan is weighed at once, a keyboard scale's
 * weight goes to the open package, and a parcel lighter or heavier than it should be is said in the
 * notice line, in its colour and with its own sound, asking for a photo of the open parcel (F4).
 */

const operatorId = () => useSession.getState().operator?.id ?? null;

/** A package opened on the bench: weighed on the dock's scale (the station's setting, read once a page). */
export async function weighOpenedPackage(accountId: number, pkg: ReturnPackage): Promise<void> {
  if (!useScale.getState().settings) await useScale.getState().load();
  await useWeighing.getState().opened(accountId, pkg, useScale.getState().settings?.scale, operatorId());
}

/** A keyboard scale's weight the key capture took (never a scan): the open package's weight. */
export function keyboardScaleWeighed(): void {
  const reading = useScale.getState().reading;
  if (useNav.getState().screen !== 'package' || reading?.state !== 'stable' || reading.weight === null || reading.unit === null) return;
  void useWeighing.getState().scaleWeight({ value: reading.weight, unit: reading.unit }, reading.scale, operatorId());
}

/** The scale's setting, known from the start: a keyboard scale's first burst must not be taken for a scan. */
export function loadDockScale(): void {
  void useScale.getState().load();
}

// Each new weighing that failed the check is said once, where the worker looks and listens.
useWeighing.subscribe((state, before) => {
  const w = state.weight;
  if (!w || w.weighed_at === before.weight?.weighed_at || state.packageId !== before.packageId) return;
  if ((w.verdict === 'light' || w.verdict === 'heavy') && w.expected_weight !== null)
    notify(
      'error',
      `${w.verdict === 'light' ? 'Too light' : 'Too heavy'}: ${weightFinding(w.weight, w.expected_weight, w.unit)}. Open the parcel and take a photo (F4).`,
      playOffWeightTone,
    );
});
