import { execFileSync } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StationScale } from '#shared/api/scale.ts';
import { readScale, type ReadTiming } from '../../electron/station/scale/read.ts';
import { startScaleSimulator, type ScaleSimulator, type SimulatedProtocol } from '../support/scale-simulator.ts';

/*
 * A serial scale as the station sees one on a USB adapter: a pseudo-terminal (Debian's socat makes
 * it; scripts/ensure-browser.js installs socat for the tests) opened through the `serialport`
 * library, the simulator on its other side. Pulling the cable is the adapter going away: socat
 * dies and the port with it.
 */
const FAST: ReadTiming = { connectMs: 2000, answerMs: 400, settleMs: 1500, pollMs: 40 };
let scale: ScaleSimulator | undefined;
beforeAll(() => {
  try {
    execFileSync('socat', ['-V'], { stdio: 'ignore' });
  } catch {
    throw new Error('socat is missing: run `node scripts/ensure-browser.js` (Debian: apt-get install socat).');
  }
});
afterEach(async () => {
  await scale?.close();
  scale = undefined;
});

const serial = (protocol: SimulatedProtocol, path: string): StationScale => ({ kind: 'serial', path, baud_rate: 9600, protocol });

describe.each(['mt_sics', 'nci'] as const)('a serial scale speaking %s', (protocol) => {
  it('answers the stable weight once the parcel settles', async () => {
    scale = await startScaleSimulator(protocol, { weight: 12.5, unit: 'lb', decimals: 1, movingFor: 2 });
    const { path } = await scale.onPty();
    expect(await readScale(serial(protocol, path), FAST)).toMatchObject({ state: 'stable', weight: 12.5, unit: 'lb' });
    expect(scale.commands).toHaveLength(3);
  });

  it('says the cable came out when the adapter goes away mid-read', async () => {
    scale = await startScaleSimulator(protocol, { movingFor: Infinity });
    const { path } = await scale.onPty();
    const reading = readScale(serial(protocol, path), FAST);
    await new Promise((resolve) => setTimeout(resolve, 100));
    scale.set({ pullCableOnRequest: true });
    expect(await reading).toMatchObject({ state: 'disconnected', weight: null });
  });

  it('says overload and garbage plainly', async () => {
    scale = await startScaleSimulator(protocol, { over: true });
    expect(await readScale(serial(protocol, (await scale.onPty()).path), FAST)).toMatchObject({ state: 'overload' });
    scale.set({ over: false, garbageFor: Infinity });
    expect(await readScale(serial(protocol, (await scale.onPty()).path), FAST)).toMatchObject({ state: 'garbled' });
  });
});

it('says there is no such port when the adapter is not plugged in', async () => {
  const reading = await readScale(serial('mt_sics', '/dev/ttyScaleThatIsNotThere'), FAST);
  expect(reading).toMatchObject({ state: 'not_connected', scale: 'MT-SICS on /dev/ttyScaleThatIsNotThere' });
  expect(reading.message).toMatch(/There is no serial port \/dev\/ttyScaleThatIsNotThere/);
});
