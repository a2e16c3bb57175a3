import { afterEach, describe, expect, it } from 'vitest';
import type { StationScale } from '#shared/api/scale.ts';
import { readScale, type ReadTiming } from '../../electron/station/scale/read.ts';
import { startScaleSimulator, type ScaleSimulator, type SimulatedProtocol } from '../support/scale-simulator.ts';

/*
 * A read of a network scale (TCP) against the simulator, in each protocol, with the simulator's
 * faults: the station takes a stable weight only, and says plainly why there is none.
 */
const FAST: ReadTiming = { connectMs: 1000, answerMs: 300, settleMs: 1200, pollMs: 40 };
let scale: ScaleSimulator | undefined;
afterEach(async () => {
  await scale?.close();
  scale = undefined;
});

const tcp = (protocol: SimulatedProtocol, port: number): StationScale => ({ kind: 'tcp', host: '127.0.0.1', port, protocol });

describe.each(['mt_sics', 'nci'] as const)('a network scale speaking %s', (protocol) => {
  it('answers the stable weight', async () => {
    scale = await startScaleSimulator(protocol, { weight: 1.25, unit: 'kg' });
    const reading = await readScale(tcp(protocol, scale.port), FAST);
    expect(reading).toMatchObject({ state: 'stable', weight: 1.25, unit: 'kg' });
    expect(scale.commands).toEqual([protocol === 'mt_sics' ? 'SI' : 'W']);
  });

  it('asks again while the parcel settles, and takes the stable weight only', async () => {
    scale = await startScaleSimulator(protocol, { weight: 3.5, unit: 'lb', movingFor: 3 });
    const reading = await readScale(tcp(protocol, scale.port), FAST);
    expect(reading).toMatchObject({ state: 'stable', weight: 3.5, unit: 'lb' });
    expect(scale.commands).toHaveLength(4);
  });

  it('says "not steady" when the scale never settles, with the last weight it showed', async () => {
    scale = await startScaleSimulator(protocol, { weight: 0.8, movingFor: Infinity });
    const reading = await readScale(tcp(protocol, scale.port), FAST);
    expect(reading).toMatchObject({ state: 'in_motion', weight: 0.8, unit: 'kg' });
    expect(reading.message).toMatch(/Not steady/);
  });

  it('says overload and underload', async () => {
    scale = await startScaleSimulator(protocol, { over: true });
    expect(await readScale(tcp(protocol, scale.port), FAST)).toMatchObject({
      state: 'overload',
      weight: null,
      message: expect.stringMatching(/over its capacity/),
    });
    scale.set({ over: false, under: true });
    expect(await readScale(tcp(protocol, scale.port), FAST)).toMatchObject({ state: 'underload', weight: null });
  });

  it('says when the scale does not answer', async () => {
    scale = await startScaleSimulator(protocol, { silent: true });
    const reading = await readScale(tcp(protocol, scale.port), FAST);
    expect(reading).toMatchObject({ state: 'no_answer', weight: null, message: expect.stringMatching(/did not answer/) });
  });

  it('reads through a burst of garbage bytes, and says so when nothing else comes', async () => {
    scale = await startScaleSimulator(protocol, { garbageFor: 1, weight: 2 });
    expect(await readScale(tcp(protocol, scale.port), FAST)).toMatchObject({ state: 'stable', weight: 2 });
    scale.set({ garbageFor: Infinity });
    const reading = await readScale(tcp(protocol, scale.port), FAST);
    expect(reading).toMatchObject({ state: 'garbled', weight: null });
    expect(reading.message).toMatch(protocol === 'mt_sics' ? /not MT-SICS/ : /not NCI/);
  });

  it('says the link went down when the cable is pulled mid-read', async () => {
    scale = await startScaleSimulator(protocol, { movingFor: Infinity });
    const reading = readScale(tcp(protocol, scale.port), FAST);
    await new Promise((resolve) => setTimeout(resolve, 60));
    scale.set({ pullCableOnRequest: true });
    expect(await reading).toMatchObject({ state: 'disconnected', weight: null, message: expect.stringMatching(/cable/) });
  });
});

it('says plainly when nothing listens at the address', async () => {
  scale = await startScaleSimulator('mt_sics');
  const port = scale.port;
  await scale.close();
  scale = undefined;
  const reading = await readScale(tcp('mt_sics', port), FAST);
  expect(reading).toMatchObject({ state: 'not_connected', weight: null, scale: `MT-SICS at 127.0.0.1:${port}` });
  expect(reading.message).toMatch(/Nothing answers at 127\.0\.0\.1/);
});
