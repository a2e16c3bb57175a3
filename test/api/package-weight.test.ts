import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PackageWeighedSchema, PackageWeightSchema } from '#shared/api/scale.ts';
import { startScaleSimulator, type ScaleSimulator } from '../support/scale-simulator.ts';
import { call, createPackage, createReturn, expectError, startStation, type TestStation } from './support.ts';

/*
 * A parcel's measured weight (docs/api-reference.md, The scale): weighed on the station's scale when
 * the parcel is scanned (recorded only when stable), or as the terminal's scale read it or a person
 * typed it; the station's own fields of the package (its `weighing`), never sent upstream.
 */
let s: TestStation;
let scale: ScaleSimulator | undefined;
let packageId: number;
beforeAll(async () => {
  s = await startStation();
  const ret = await createReturn(s.origin, s.account1);
  packageId = (await createPackage(s.origin, s.account1, 1, ret.id)).id;
});
afterAll(async () => {
  await s.close();
});
afterEach(async () => {
  await scale?.close();
  scale = undefined;
});

const weigh = (body: unknown, token = s.account1, id = packageId) => call(s.origin, 'POST', `/api/v1/accounts/1/return_packages/${id}/weight`, { token, body });
const weightOf = (token = s.account1, id = packageId) => call(s.origin, 'GET', `/api/v1/accounts/1/return_packages/${id}/weight`, { token });

describe('weighing a parcel', () => {
  it('has no weight until weighed, and refuses the station scale while the station reads none', async () => {
    expectError(await weightOf(), 'NOT_FOUND');
    const details = expectError(await weigh({ source: 'station_scale' }), 'NOT_FOUND');
    expect(details.message).toMatch(/reads no scale itself/);
    expectError(await weightOf(), 'NOT_FOUND');
  });

  it('records a stable weight of the station scale, and keeps the last one when the next read is not stable', async () => {
    scale = await startScaleSimulator('mt_sics', { weight: 1.8, unit: 'kg', movingFor: 1 });
    await call(s.origin, 'PUT', '/api/v1/station/scale', {
      token: s.stationToken,
      body: { scale: { kind: 'tcp', host: '127.0.0.1', port: scale.port, protocol: 'mt_sics' } },
    });
    const first = await weigh({ source: 'station_scale' });
    expect(first.status, first.text).toBe(200);
    const answer = PackageWeighedSchema.parse(first.json);
    expect(answer.reading).toMatchObject({ state: 'stable', weight: 1.8 });
    expect(answer.weight).toMatchObject({
      return_package_id: packageId,
      weight: 1.8,
      unit: 'kg',
      source: 'scale',
      scale: `MT-SICS at 127.0.0.1:${scale.port}`,
    });

    // An empty scale (a stable zero) records nothing.
    scale.set({ weight: 0 });
    const empty = PackageWeighedSchema.parse((await weigh({ source: 'station_scale' })).json);
    expect(empty).toEqual({ reading: expect.objectContaining({ state: 'stable', weight: 0 }), weight: answer.weight });

    scale.set({ movingFor: Infinity, weight: 0.2 });
    const second = PackageWeighedSchema.parse((await weigh({ source: 'station_scale' })).json);
    expect(second.reading).toMatchObject({ state: 'in_motion' });
    expect(second.weight).toEqual(answer.weight);
    expect(PackageWeightSchema.parse((await weightOf()).json)).toEqual(answer.weight);
    // The package's answer shows the weighing in its own fields; the spec's weight fields are untouched.
    const pkg = await call(s.origin, 'GET', `/api/v1/accounts/1/return_packages/${packageId}`, { token: s.account1 });
    expect(pkg.json).toMatchObject({ weight: null, weighing: { measured_weight: 1.8, measured_weight_unit: 'kg', weight_source: 'scale' } });
  });

  it('records what the terminal measured or a person typed, and refuses bad input, changing nothing', async () => {
    const before = (await weightOf()).json;
    for (const [body, path] of [
      [{ source: 'typed', weight: 0, unit: 'kg' }, 'weight'],
      [{ source: 'typed', weight: 2, unit: 'stone' }, 'unit'],
      [{ source: 'scale', weight: 2, unit: 'kg' }, 'scale'],
      [{ source: 'typed', weight: 2, unit: 'kg', operator_id: 999 }, 'operator_id'],
    ] as const) {
      const details = expectError(await weigh(body), 'VALIDATION_FAILED');
      expect((details.fields as Array<{ path: string }>).map((f) => f.path)).toContain(path);
    }
    expect((await weightOf()).json).toEqual(before);
    const typed = PackageWeighedSchema.parse((await weigh({ source: 'typed', weight: 2.5, unit: 'lb' })).json);
    expect(typed).toMatchObject({ reading: null, weight: { weight: 2.5, unit: 'lb', source: 'typed', scale: null } });
    const usb = PackageWeighedSchema.parse((await weigh({ source: 'scale', weight: 840, unit: 'g', scale: 'USB scale Dymo M10' })).json);
    expect(usb.weight).toMatchObject({ weight: 840, unit: 'g', source: 'scale', scale: 'USB scale Dymo M10' });
  });

  it("is the account's: another account's token sees no such package", async () => {
    expectError(await weightOf(s.account2), 'ACCOUNT_FORBIDDEN');
    expectError(await weigh({ source: 'typed', weight: 1, unit: 'kg' }, s.account2), 'ACCOUNT_FORBIDDEN');
    expectError(await weightOf(s.account1, 999_999), 'NOT_FOUND');
  });
});
