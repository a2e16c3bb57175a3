import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { ApiClient } from '#shared/api/client.ts';
import type { ReturnPackage } from '#shared/api/return-packages.ts';
import { isStationScale, type PackageWeighInput, type PackageWeight, type ScaleReading, type ScaleSetting, type WeightUnit } from '#shared/api/scale.ts';
import { describeError } from '../api/describe-error.ts';
import { pageClient } from '../api/station-api.ts';
import { browserHid, type HidLike, readHidScale } from '../scale/hid-scale.ts';
import { typedWeight } from '../scale/typed-weight.ts';

/*
 * The parcel on the scale (docs/operator-guide.md, The weight check): when a package opens, its
 * parcel is weighed at once wherever the scale is read — by the station (serial, network), by this
 * window (USB HID) — or when a keyboard scale types its weight, or as a person types it; the station
 * records the weight with its verdict, which the package screen shows.
 */

export type WeighingClient = Pick<ApiClient, 'weighPackage'>;

export interface WeighingState {
  /** The package on the bench: its account and id; null when none is open. */
  packageId: number | null;
  accountId: number | null;
  /** The weighing the package has (from its answer, then from each weighing's); null: not weighed. */
  weight: PackageWeight | null;
  /** A weighing under way. */
  busy: boolean;
  /** What the scale said when it gave no weight (not steady, empty, …), or why the weighing failed; null otherwise. */
  problem: string | null;
  /** A package opened: show its weighing, and weigh it now on a scale that can be read (`scale`, the station's setting). */
  opened(accountId: number, pkg: ReturnPackage, scale: ScaleSetting | undefined, operatorId: number | null): Promise<void>;
  /** A stable weight the terminal's scale gave (a keyboard scale's keys): recorded for the open package. */
  scaleWeight(weight: { value: number; unit: WeightUnit }, scale: string, operatorId: number | null): Promise<void>;
  /** A weight typed by hand; why not, in words, or null when recorded. */
  typed(text: string, unit: WeightUnit, operatorId: number | null): Promise<string | null>;
}

export type WeighingStore = UseBoundStore<StoreApi<WeighingState>>;

/** The package's weighing as its answer gives it, in the weighing route's shape. */
export function weightOfPackage(pkg: ReturnPackage): PackageWeight | null {
  const w = pkg.weighing;
  if (w.measured_weight === null || w.measured_weight_unit === null || w.weight_source === null || w.weighed_at === null) return null;
  return {
    return_package_id: pkg.id,
    weight: w.measured_weight,
    unit: w.measured_weight_unit,
    source: w.weight_source,
    scale: w.weight_scale,
    operator_id: w.weighed_by,
    weighed_at: w.weighed_at,
    expected_weight: w.expected_weight,
    expected_from: w.expected_weight_from,
    verdict: w.weight_verdict,
  };
}

export function createWeighingStore(client: WeighingClient, hid: () => HidLike | undefined = browserHid): WeighingStore {
  const store: WeighingStore = create<WeighingState>()((set, get) => {
    /** Records a weighing for the open package; a package left meanwhile keeps its answer out of the screen. */
    const weigh = async (body: PackageWeighInput, reading: ScaleReading | null = null): Promise<string | null> => {
      const { accountId, packageId } = get();
      if (accountId === null || packageId === null) return 'No package is open.';
      set({ busy: true, problem: null });
      try {
        const answer = await client.weighPackage(accountId, packageId, body);
        if (get().packageId !== packageId) return null;
        const said = answer.reading ?? reading;
        const taken = answer.reading === null || (answer.reading.state === 'stable' && (answer.reading.weight ?? 0) > 0);
        set({ busy: false, weight: answer.weight, problem: taken ? null : noWeight(said) });
        return null;
      } catch (error) {
        const problem = `Not weighed: ${describeError(error)}`;
        if (get().packageId === packageId) set({ busy: false, problem });
        return problem;
      }
    };

    return {
      packageId: null,
      accountId: null,
      weight: null,
      busy: false,
      problem: null,
      async opened(accountId, pkg, scale, operatorId) {
        const same = get().packageId === pkg.id && get().accountId === accountId;
        set({ accountId, packageId: pkg.id, weight: weightOfPackage(pkg), ...(same ? {} : { busy: false, problem: null }) });
        // A received or cancelled parcel is not on the scale to be checked.
        if (!scale || pkg.status === 'received' || pkg.status === 'cancelled') return;
        if (isStationScale(scale)) await weigh({ source: 'station_scale', operator_id: operatorId });
        else if (scale.kind === 'hid') {
          set({ busy: true });
          const reading = await readHidScale(hid());
          if (get().packageId !== pkg.id) return;
          if (reading.state === 'stable' && reading.weight !== null && reading.weight > 0 && reading.unit !== null)
            await weigh({ source: 'scale', weight: reading.weight, unit: reading.unit, scale: reading.scale, operator_id: operatorId }, reading);
          else set({ busy: false, problem: noWeight(reading) });
        }
      },
      async scaleWeight(weight, scale, operatorId) {
        if (weight.value <= 0) {
          set({ problem: 'The scale reads 0: put the parcel on it and send its weight again.' });
          return;
        }
        await weigh({ source: 'scale', weight: weight.value, unit: weight.unit, scale, operator_id: operatorId });
      },
      async typed(text, unit, operatorId) {
        const parsed = typedWeight(text, unit);
        if ('problem' in parsed) return parsed.problem;
        return weigh({ source: 'typed', weight: parsed.value, unit: parsed.unit, operator_id: operatorId });
      },
    };
  });
  return store;
}

/** Why a read gave no weight to record, in the scale's words. */
function noWeight(reading: ScaleReading | null): string {
  if (!reading) return 'The scale gave no weight.';
  if (reading.state === 'stable') return 'Nothing on the scale: put the parcel on it and scan it again.';
  return reading.message;
}

/** This page's weighing. */
export const useWeighing = createWeighingStore(pageClient);
