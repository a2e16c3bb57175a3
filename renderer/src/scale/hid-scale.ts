import { inStationUnit, SCALE_SAYS, type ScaleReading, type WeightUnit } from '#shared/api/scale.ts';

/*
 * A USB HID point-of-sale scale (usage page 0x8D, the USB HID POS usage tables' weighing devices),
 * read by the desktop app's window through the browser's WebHID API. Such a scale sends its Scale
 * Data Report again and again: the report id, then status, weight unit, data scaling (a signed
 * power of ten) and the weight (16 bits, low byte first). The status is one of 1 fault, 2 stable at
 * centre of zero, 3 in motion, 4 weight stable, 5 under zero, 6 over weight limit, 7 requires
 * calibration, 8 requires re-zeroing; the unit one of 1 mg, 2 g, 3 kg, 4 carats, 5 taels, 6 grains,
 * 7 pennyweights, 8 metric tons, 9 avoir tons, 10 troy ounces, 11 ounces, 12 pounds.
 */

export const HID_SCALE_USAGE_PAGE = 0x8d;
/** The Scale Data Report's id on the scales that number their reports. */
const SCALE_DATA_REPORT = 3;

/** What the station needs of WebHID (`navigator.hid`): tests stand in for it. */
export interface HidDeviceLike extends EventTarget {
  readonly opened: boolean;
  readonly productName: string;
  readonly collections: ReadonlyArray<{ usagePage?: number }>;
  open(): Promise<void>;
  close(): Promise<void>;
}
export interface HidLike extends EventTarget {
  getDevices(): Promise<HidDeviceLike[]>;
  requestDevice(options: { filters: Array<{ usagePage: number }> }): Promise<HidDeviceLike[]>;
}
interface InputReport extends Event {
  readonly device: HidDeviceLike;
  readonly reportId: number;
  readonly data: DataView;
}

export type HidAnswer =
  | { kind: 'weight'; stable: boolean; value: number; unit: WeightUnit }
  | { kind: 'overload' }
  | { kind: 'underload' }
  | { kind: 'fault'; why: string }
  | { kind: 'other' };

const HID_UNITS = ['', 'mg', 'g', 'kg', 'ct', 'taels', 'gr', 'dwt', 't', 'ton', 'ozt', 'oz', 'lb'] as const;

/** One input report: a weight, a state without one, or `other` (a report that is not scale data). */
export function parseScaleReport(reportId: number, data: DataView): HidAnswer {
  // A scale that numbers no reports (id 0) sends the Scale Data Report's id as its first byte.
  const offset = reportId === 0 && data.byteLength >= 6 ? 1 : 0;
  const id = offset === 1 ? data.getUint8(0) : reportId;
  if (id !== SCALE_DATA_REPORT || data.byteLength < offset + 5) return { kind: 'other' };
  const status = data.getUint8(offset);
  const unitCode = data.getUint8(offset + 1);
  const exponent = data.getInt8(offset + 2);
  const raw = data.getUint16(offset + 3, true);
  switch (status) {
    case 1:
      return { kind: 'fault', why: 'it reports a fault' };
    case 5:
      return { kind: 'underload' };
    case 6:
      return { kind: 'overload' };
    case 7:
      return { kind: 'fault', why: 'it needs calibrating' };
    case 8:
      return { kind: 'fault', why: 'it needs zeroing: take everything off and zero it' };
    case 2:
    case 3:
    case 4: {
      const value = Number((raw * 10 ** exponent).toFixed(Math.max(0, -exponent)));
      const weight = inStationUnit(value, HID_UNITS[unitCode] ?? '');
      if (!weight) return { kind: 'fault', why: `it weighs in a unit the station does not record (unit ${unitCode}): set it to kg, g, lb or oz` };
      return { kind: 'weight', stable: status !== 3, ...weight };
    }
    default:
      return { kind: 'other' };
  }
}

const isScale = (device: HidDeviceLike) => device.collections.some((c) => c.usagePage === HID_SCALE_USAGE_PAGE);

/** The browser's WebHID, where it has one (the desktop app's window, Chromium and Edge). */
export function browserHid(): HidLike | undefined {
  return (navigator as Navigator & { hid?: HidLike }).hid;
}

/** Asks for the USB scale (a click's work: the browser allows it only then); its name, or why none. */
export async function chooseHidScale(hid: HidLike | undefined): Promise<{ name: string } | { problem: string }> {
  if (!hid) return { problem: 'This window cannot reach USB scales: use the desktop app (or Chromium or Edge).' };
  try {
    const [device] = await hid.requestDevice({ filters: [{ usagePage: HID_SCALE_USAGE_PAGE }] });
    return device ? { name: device.productName || 'USB scale' } : { problem: 'No USB scale was chosen: is it plugged in?' };
  } catch (error) {
    return { problem: `No USB scale was chosen: ${(error as Error).message}` };
  }
}

export interface HidTiming {
  /** How long a moving scale may take to settle. */
  settleMs: number;
}
export const HID_TIMING: HidTiming = { settleMs: 4000 };

/** Reads the USB scale chosen before: its first stable weight, or why there is none. */
export async function readHidScale(hid: HidLike | undefined, timing: HidTiming = HID_TIMING): Promise<ScaleReading> {
  const say = (state: ScaleReading['state'], message: string, scale: string, weight: { value: number; unit: WeightUnit } | null = null): ScaleReading => ({
    state,
    weight: weight?.value ?? null,
    unit: weight?.unit ?? null,
    message,
    scale,
  });
  if (!hid) return say('not_connected', 'This window cannot reach USB scales: use the desktop app (or Chromium or Edge).', 'USB scale');
  const device = (await hid.getDevices()).find(isScale);
  if (!device) return say('not_connected', 'No USB scale here: plug it in, then choose it in Settings (Choose USB scale).', 'USB scale');
  const name = `USB scale ${device.productName}`.trim();
  try {
    if (!device.opened) await device.open();
  } catch (error) {
    return say('not_connected', `The USB scale did not open: ${(error as Error).message}. Is another program using it?`, name);
  }
  return new Promise<ScaleReading>((resolve) => {
    let moving: { value: number; unit: WeightUnit } | null = null;
    const finish = (reading: ScaleReading) => {
      clearTimeout(timer);
      device.removeEventListener('inputreport', onReport);
      hid.removeEventListener('disconnect', onDisconnect);
      resolve(reading);
    };
    const onReport = (event: Event) => {
      const { reportId, data } = event as InputReport;
      const answer = parseScaleReport(reportId, data);
      if (answer.kind === 'weight' && answer.stable && answer.value >= 0) finish(say('stable', SCALE_SAYS.stable(answer), name, answer));
      else if (answer.kind === 'weight') moving = answer;
      else if (answer.kind === 'overload') finish(say('overload', SCALE_SAYS.overload, name));
      else if (answer.kind === 'underload') finish(say('underload', SCALE_SAYS.underload, name));
      else if (answer.kind === 'fault') finish(say('fault', SCALE_SAYS.fault(answer.why), name));
    };
    const onDisconnect = (event: Event) => {
      if ((event as Event & { device?: HidDeviceLike }).device === device)
        finish(say('disconnected', 'The USB scale was unplugged during the read: plug it in again.', name));
    };
    const timer = setTimeout(() => {
      if (moving) finish(say('in_motion', SCALE_SAYS.notSteady(timing.settleMs), name, moving));
      else finish(say('no_answer', 'The USB scale sent no weight: is it on?', name));
    }, timing.settleMs);
    device.addEventListener('inputreport', onReport);
    hid.addEventListener('disconnect', onDisconnect);
  });
}
