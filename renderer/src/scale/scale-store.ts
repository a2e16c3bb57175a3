import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { ApiClient } from '#shared/api/client.ts';
import {
  isStationScale,
  SCALE_SAYS,
  type ScaleReading,
  type ScaleSetting,
  type ScaleSettingInput,
  type ScaleSettings,
  type WeightUnit,
} from '#shared/api/scale.ts';
import { describeError } from '../api/describe-error.ts';
import { pageClient } from '../api/station-api.ts';
import { browserHid, type HidLike, readHidScale } from './hid-scale.ts';
import { weightWithUnit } from './typed-weight.ts';

/*
 * The dock's scale as this terminal knows it: which one the station keeps (docs/operator-guide.md,
 * The scale), and a read of it wherever it is read — by the station (serial, network), by this
 * window (USB HID), or from the keys a keyboard-wedge scale types (handed over by the key capture,
 * never taken for a scan).
 */

export type ScaleClient = Pick<ApiClient, 'scale' | 'chooseScale' | 'readScale'>;

/** How long a test read waits for a keyboard-wedge scale to type its weight (its print key pressed). */
export const WEDGE_WAIT_MS = 15_000;

export interface ScaleState {
  /** The station's scale; null until the station answered. */
  settings: ScaleSettings | null;
  /** The last read's answer, and whether a read is under way. */
  reading: ScaleReading | null;
  busy: boolean;
  load(): Promise<string | null>;
  /** Chooses the scale on the station; why not, in words, or null. */
  choose(scale: ScaleSettingInput): Promise<string | null>;
  /** Reads the scale now, wherever it is read. */
  read(): Promise<ScaleReading>;
  /**
   * A burst of keys the key capture took: true when it is the wedge scale's weight (then it is no
   * scan); `prefixed`: the scale's prefix key came right before it.
   */
  offerKeys(code: string, prefixed: boolean): boolean;
}

export type ScaleStore = UseBoundStore<StoreApi<ScaleState>>;

export function createScaleStore(client: ScaleClient, hid: () => HidLike | undefined = browserHid): ScaleStore {
  let wedgeWaiter: ((weight: { value: number; unit: WeightUnit }) => void) | null = null;
  const store: ScaleStore = create<ScaleState>()((set, get) => ({
    settings: null,
    reading: null,
    busy: false,
    async load() {
      try {
        set({ settings: await client.scale() });
        return null;
      } catch (error) {
        return describeError(error);
      }
    },
    async choose(scale) {
      try {
        set({ settings: await client.chooseScale(scale), reading: null });
        return null;
      } catch (error) {
        return describeError(error);
      }
    },
    async read() {
      set({ busy: true });
      const setting = get().settings?.scale ?? { kind: 'manual' };
      const reading = await readSetting(setting).catch((error: unknown): ScaleReading => ({
        state: 'not_connected',
        weight: null,
        unit: null,
        message: describeError(error),
        scale: 'the scale',
      }));
      set({ reading, busy: false });
      return reading;
    },
    offerKeys(code, prefixed) {
      const scale = get().settings?.scale;
      if (scale?.kind !== 'wedge') return false;
      const prefix = scale.prefix;
      // A prefix that is a character arrives as the burst's first character; a named key (F11) just before it.
      const text = prefix !== null && prefix.length === 1 ? (code.startsWith(prefix) ? code.slice(1) : null) : prefix !== null && !prefixed ? null : code;
      const weight = text === null ? null : weightWithUnit(text);
      if (!weight) return false;
      if (wedgeWaiter) wedgeWaiter(weight);
      else set({ reading: stableReading(weight, 'keyboard scale') });
      return true;
    },
  }));

  const readSetting = async (scale: ScaleSetting): Promise<ScaleReading> => {
    if (isStationScale(scale)) return client.readScale();
    if (scale.kind === 'hid') return readHidScale(hid());
    if (scale.kind === 'wedge') return waitForWedge();
    return { state: 'no_answer', weight: null, unit: null, message: 'No scale: the weight is typed by hand.', scale: 'typed by hand' };
  };

  const waitForWedge = () =>
    new Promise<ScaleReading>((resolve) => {
      const timer = setTimeout(() => {
        wedgeWaiter = null;
        resolve({
          state: 'no_answer',
          weight: null,
          unit: null,
          message: `The keyboard scale typed no weight within ${WEDGE_WAIT_MS / 1000} s: press its print (send) key with the parcel on it.`,
          scale: 'keyboard scale',
        });
      }, WEDGE_WAIT_MS);
      wedgeWaiter = (weight) => {
        clearTimeout(timer);
        wedgeWaiter = null;
        resolve(stableReading(weight, 'keyboard scale'));
      };
    });
  return store;
}

/** A wedge scale types its weight once it is steady (its print key): stable. */
const stableReading = (weight: { value: number; unit: WeightUnit }, scale: string): ScaleReading => ({
  state: 'stable',
  weight: weight.value,
  unit: weight.unit,
  message: SCALE_SAYS.stable(weight),
  scale,
});

/** This page's scale. */
export const useScale = createScaleStore(pageClient);
