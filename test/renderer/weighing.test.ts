import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../shared/api/client.ts';
import type { ScaleSetting } from '../../shared/api/scale.ts';
import { createWeighingStore } from '../../renderer/src/weighing/weighing-store.ts';
import { createPackage, createReturn, startStation, type TestStation } from '../api/support.ts';
import { startScaleSimulator, type ScaleSimulator } from '../support/scale-simulator.ts';

/*
 * The package screen's weighing against a real station: the open package weighed on the station's
 * scale (the MT-SICS simulator on TCP) when it opens, a weight typed by hand, and what the worker is
 * told when the scale gives no weight to record — with what the station recorded.
 */
let s: TestStation;
let client: ApiClient;
let scale: ScaleSimulator | undefined;
beforeAll(async () => {
  s = await startStation();
  client = new ApiClient({ baseUrl: s.origin, token: s.stationToken });
});
afterAll(async () => s?.close());
afterEach(async () => {
  await scale?.close();
  scale = undefined;
});

/** A package of a one-package return that weighs 800 g (the tests' return), delivered. */
async function openable() {
  const ret = await createReturn(s.origin, s.account1);
  const created = await createPackage(s.origin, s.account1, 1, ret.id, { status: 'delivered' });
  return client.getPackage(1, created.id);
}

async function onStationScale(weight: number): Promise<ScaleSetting> {
  scale = await startScaleSimulator('mt_sics', { weight, unit: 'kg' });
  const setting: ScaleSetting = { kind: 'tcp', host: '127.0.0.1', port: scale.port, protocol: 'mt_sics' };
  await client.chooseScale(setting);
  return setting;
}

describe('weighing the open package', () => {
  it('weighs it on the station scale when it opens, and shows the verdict the station recorded', async () => {
    const setting = await onStationScale(0.21);
    const pkg = await openable();
    const weighing = createWeighingStore(client);
    await weighing.getState().opened(1, pkg, setting, null);
    expect(weighing.getState()).toMatchObject({ busy: false, problem: null, weight: { weight: 0.21, unit: 'kg', verdict: 'light', expected_weight: 0.8 } });
    expect((await client.getPackage(1, pkg.id)).weighing).toMatchObject({ measured_weight: 0.21, weight_verdict: 'light' });
  });

  it('says why an empty scale or one that never settles gave no weight, and records nothing', async () => {
    const setting = await onStationScale(0);
    const pkg = await openable();
    const weighing = createWeighingStore(client);
    await weighing.getState().opened(1, pkg, setting, null);
    expect(weighing.getState()).toMatchObject({ weight: null, problem: 'Nothing on the scale: put the parcel on it and scan it again.' });
    scale?.set({ weight: 1, movingFor: Infinity });
    await weighing.getState().opened(1, pkg, setting, null);
    expect(weighing.getState().problem).toMatch(/^Not steady/);
    expect((await client.getPackage(1, pkg.id)).weighing.measured_weight).toBeNull();
  }, 20_000);

  it('takes a weight typed by hand, refusing what is no weight', async () => {
    const pkg = await openable();
    const weighing = createWeighingStore(client);
    // Typed by hand: nothing is read when it opens.
    await weighing.getState().opened(1, pkg, { kind: 'manual' }, null);
    expect(weighing.getState().weight).toBeNull();
    expect(await weighing.getState().typed('heavy', 'kg', null)).toMatch(/Type the weight as a number/);
    expect(await weighing.getState().typed('0', 'kg', null)).toBe('A parcel weighs more than 0.');
    expect((await client.getPackage(1, pkg.id)).weighing.measured_weight).toBeNull();
    expect(await weighing.getState().typed('790 g', 'kg', null)).toBeNull();
    expect(weighing.getState().weight).toMatchObject({ weight: 790, unit: 'g', source: 'typed', verdict: 'ok', expected_weight: 800 });
  });
});
