import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../shared/api/client.ts';
import { type HidDeviceLike, type HidLike, parseScaleReport, readHidScale } from '../../renderer/src/scale/hid-scale.ts';
import { createScaleStore } from '../../renderer/src/scale/scale-store.ts';
import { typedWeight, weightWithUnit } from '../../renderer/src/scale/typed-weight.ts';
import { startStation, type TestStation } from '../api/support.ts';

/*
 * The scales the terminal reads: a USB HID point-of-sale scale through a stand-in of the browser's
 * WebHID (`navigator.hid`) that sends Scale Data Reports laid out as the USB HID POS usage tables
 * define them (written from the tables, not from the parser), a keyboard-wedge scale's keys, and a
 * weight typed by hand — with the scale chosen on a real station.
 */

/** Status values of the Scale Data Report (HID POS usage tables, Scale Status 0x70, 1-based). */
const STATUS = { fault: 1, stableZero: 2, inMotion: 3, stable: 4, underZero: 5, overWeight: 6, needsCalibration: 7 } as const;
/** Weight units (Weight Unit 0x50, 1-based): 1 mg, 2 g, 3 kg, …, 10 troy ounce, 11 ounce, 12 pound. */
const UNIT = { mg: 1, g: 2, kg: 3, ozt: 10, oz: 11, lb: 12 } as const;

/** A Scale Data Report's bytes after its id: status, unit, data scaling (int8 power of ten), weight low byte, high byte. */
function report(status: number, unit: number, exponent: number, raw: number): DataView {
  return new DataView(Uint8Array.from([status, unit, exponent & 0xff, raw & 0xff, (raw >> 8) & 0xff]).buffer);
}

class StandInScale extends EventTarget implements HidDeviceLike {
  opened = false;
  readonly collections = [{ usagePage: 0x8d, usage: 0x20 }];
  readonly productName: string;
  constructor(productName = 'Stand-in 30 lb') {
    super();
    this.productName = productName;
  }
  async open() {
    this.opened = true;
  }
  async close() {
    this.opened = false;
  }
  /** The scale sends a report, as WebHID fires `inputreport`. */
  send(reportId: number, data: DataView) {
    this.dispatchEvent(Object.assign(new Event('inputreport'), { device: this, reportId, data }));
  }
}

class StandInHid extends EventTarget implements HidLike {
  devices: HidDeviceLike[];
  constructor(devices: HidDeviceLike[]) {
    super();
    this.devices = devices;
  }
  async getDevices() {
    return this.devices;
  }
  async requestDevice() {
    return this.devices.slice(0, 1);
  }
  unplug(device: HidDeviceLike) {
    this.devices = this.devices.filter((d) => d !== device);
    this.dispatchEvent(Object.assign(new Event('disconnect'), { device }));
  }
}

const after = (ms: number, work: () => void) => setTimeout(work, ms);
const FAST = { settleMs: 400 };

describe('a USB HID scale', () => {
  it('reads the Scale Data Report: units, the power of ten, a scale without report ids', () => {
    expect(parseScaleReport(3, report(STATUS.stable, UNIT.kg, -3, 1250))).toEqual({ kind: 'weight', stable: true, value: 1.25, unit: 'kg' });
    expect(parseScaleReport(3, report(STATUS.inMotion, UNIT.lb, -1, 123))).toEqual({ kind: 'weight', stable: false, value: 12.3, unit: 'lb' });
    expect(parseScaleReport(3, report(STATUS.stable, UNIT.mg, 2, 500))).toEqual({ kind: 'weight', stable: true, value: 50, unit: 'g' });
    expect(parseScaleReport(3, report(STATUS.stableZero, UNIT.g, 0, 0))).toEqual({ kind: 'weight', stable: true, value: 0, unit: 'g' });
    // No report ids: the report's first byte is its id.
    const whole = new DataView(Uint8Array.from([3, STATUS.stable, UNIT.oz, 0xff, 0x34, 0x19]).buffer);
    expect(parseScaleReport(0, whole)).toEqual({ kind: 'weight', stable: true, value: 645.2, unit: 'oz' });
    expect(parseScaleReport(3, report(STATUS.stable, UNIT.ozt, 0, 5))).toMatchObject({ kind: 'fault' });
    expect(parseScaleReport(1, report(STATUS.stable, UNIT.kg, 0, 5))).toEqual({ kind: 'other' });
    expect(parseScaleReport(3, new DataView(new ArrayBuffer(2)))).toEqual({ kind: 'other' });
  });

  it('waits through motion and takes the stable weight only', async () => {
    const device = new StandInScale();
    const hid = new StandInHid([device]);
    after(30, () => device.send(3, report(STATUS.inMotion, UNIT.kg, -2, 180)));
    after(60, () => device.send(3, report(STATUS.inMotion, UNIT.kg, -2, 212)));
    after(90, () => device.send(3, report(STATUS.stable, UNIT.kg, -2, 205)));
    expect(await readHidScale(hid, FAST)).toEqual({
      state: 'stable',
      weight: 2.05,
      unit: 'kg',
      message: 'Stable: 2.05 kg.',
      scale: 'USB scale Stand-in 30 lb',
    });
    expect(device.opened).toBe(true);
  });

  it('says not steady, overload, below zero and a fault plainly', async () => {
    const device = new StandInScale();
    const hid = new StandInHid([device]);
    const moving = setInterval(() => device.send(3, report(STATUS.inMotion, UNIT.lb, -1, 40)), 30);
    expect(await readHidScale(hid, FAST)).toMatchObject({ state: 'in_motion', weight: 4, unit: 'lb', message: expect.stringContaining('Not steady') });
    clearInterval(moving);
    after(20, () => device.send(3, report(STATUS.overWeight, UNIT.lb, 0, 0)));
    expect(await readHidScale(hid, FAST)).toMatchObject({ state: 'overload', weight: null });
    after(20, () => device.send(3, report(STATUS.underZero, UNIT.lb, 0, 0)));
    expect(await readHidScale(hid, FAST)).toMatchObject({ state: 'underload', weight: null });
    after(20, () => device.send(3, report(STATUS.needsCalibration, UNIT.lb, 0, 0)));
    expect(await readHidScale(hid, FAST)).toMatchObject({ state: 'fault', message: expect.stringContaining('calibrating') });
  });

  it('says the scale was unplugged mid-read, sent nothing, or is not there', async () => {
    const device = new StandInScale();
    const hid = new StandInHid([device]);
    after(20, () => device.send(3, report(STATUS.inMotion, UNIT.kg, -2, 100)));
    after(40, () => hid.unplug(device));
    expect(await readHidScale(hid, FAST)).toMatchObject({ state: 'disconnected', weight: null, message: expect.stringContaining('unplugged') });
    expect(await readHidScale(new StandInHid([new StandInScale()]), FAST)).toMatchObject({ state: 'no_answer' });
    expect(await readHidScale(new StandInHid([]), FAST)).toMatchObject({ state: 'not_connected', message: expect.stringContaining('Choose USB scale') });
    expect(await readHidScale(undefined, FAST)).toMatchObject({ state: 'not_connected', message: expect.stringContaining('desktop app') });
  });
});

describe('weights as keys', () => {
  it('tells a wedge scale’s weight from a scanned code by its unit', () => {
    expect(weightWithUnit('1.250kg')).toEqual({ value: 1.25, unit: 'kg' });
    expect(weightWithUnit('  +12.5 LB')).toEqual({ value: 12.5, unit: 'lb' });
    expect(weightWithUnit('ST,GS,+0001.25kg')).toEqual({ value: 1.25, unit: 'kg' });
    for (const code of ['1Z999AA10123456784', '4006381333931', 'SKU-12KG', '12', 'kg']) expect(weightWithUnit(code), code).toBeNull();
  });
  it('takes a weight typed by hand, a decimal comma too, and says why not', () => {
    expect(typedWeight('1,25', 'kg')).toEqual({ value: 1.25, unit: 'kg' });
    expect(typedWeight('800 g', 'kg')).toEqual({ value: 800, unit: 'g' });
    expect(typedWeight('abc', 'kg')).toMatchObject({ problem: expect.stringContaining('number') });
    expect(typedWeight('0', 'kg')).toMatchObject({ problem: expect.stringContaining('more than 0') });
  });
});

describe('the scale store on a real station', () => {
  let ts: TestStation;
  beforeAll(async () => {
    ts = await startStation();
  });
  afterAll(async () => {
    await ts.close();
  });

  it('reads the USB scale the station names, through the window’s WebHID', async () => {
    const device = new StandInScale('Dock scale');
    const store = createScaleStore(new ApiClient({ baseUrl: ts.origin, token: ts.stationToken }), () => new StandInHid([device]));
    expect(await store.getState().choose({ kind: 'hid' })).toBeNull();
    after(30, () => device.send(3, report(STATUS.stable, UNIT.g, 0, 840)));
    expect(await store.getState().read()).toMatchObject({ state: 'stable', weight: 840, unit: 'g' });
    expect(store.getState().reading).toMatchObject({ state: 'stable', weight: 840 });
  });

  it('takes a wedge scale’s keys as its weight, never as a scan, as its setting says', async () => {
    const store = createScaleStore(new ApiClient({ baseUrl: ts.origin, token: ts.stationToken }));
    expect(await store.getState().choose({ kind: 'wedge' })).toBeNull();
    const waiting = store.getState().read();
    expect(store.getState().offerKeys('1Z999AA10123456784', false)).toBe(false);
    expect(store.getState().offerKeys('0.750 kg', false)).toBe(true);
    expect(await waiting).toMatchObject({ state: 'stable', weight: 0.75, unit: 'kg' });

    // With a prefix character: only what follows it is the scale's.
    expect(await store.getState().choose({ kind: 'wedge', prefix: '§' })).toBeNull();
    expect(store.getState().offerKeys('0.750 kg', false)).toBe(false);
    expect(store.getState().offerKeys('§1.5kg', false)).toBe(true);
    expect(store.getState().reading).toMatchObject({ state: 'stable', weight: 1.5, unit: 'kg' });
    // With a named prefix key: the weight must follow it.
    expect(await store.getState().choose({ kind: 'wedge', prefix: 'F11' })).toBeNull();
    expect(store.getState().offerKeys('2 lb', false)).toBe(false);
    expect(store.getState().offerKeys('2 lb', true)).toBe(true);
    // Another scale: keys are scans again.
    expect(await store.getState().choose({ kind: 'manual' })).toBeNull();
    expect(store.getState().offerKeys('0.750 kg', false)).toBe(false);
  });
});
