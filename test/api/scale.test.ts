import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ScaleReadingSchema, ScaleSettingsSchema, SerialPortListSchema } from '#shared/api/scale.ts';
import { createToken } from '../../electron/station/domain/tokens.ts';
import { startScaleSimulator, type ScaleSimulator } from '../support/scale-simulator.ts';
import { call, expectError, startStation, type TestStation } from './support.ts';

/*
 * The scale through the API (docs/api-reference.md, The scale): choosing one (a supervisor's, every
 * rule of the schema refused with its field), reading the station's own scale (a network scale here,
 * the simulator behind it) and what a read answers when the scale is elsewhere or silent.
 */
let s: TestStation;
let terminal: string;
let scale: ScaleSimulator | undefined;
const SCALE = '/api/v1/station/scale';

beforeAll(async () => {
  s = await startStation();
  terminal = (await createToken(s.station.store, s.station.ctx.clock, { scope: 'station', role: 'terminal', accountId: null, name: 'UI link' })).secret;
});
afterAll(async () => {
  await s.close();
});
afterEach(async () => {
  await scale?.close();
  scale = undefined;
});

const choose = (body: unknown, token = s.stationToken) => call(s.origin, 'PUT', SCALE, { token, body });
const read = (token = terminal) => call(s.origin, 'GET', `${SCALE}/weight`, { token });

describe('choosing the scale', () => {
  it('is typed by hand until one is chosen, and a read then says the station reads none', async () => {
    const got = await call(s.origin, 'GET', SCALE, { token: terminal });
    expect(ScaleSettingsSchema.parse(got.json)).toEqual({ scale: { kind: 'manual' }, updated_at: null });
    const details = expectError(await read(), 'NOT_FOUND');
    expect(details.message).toMatch(/typed by hand/);
  });

  it("is a supervisor's: a terminal's token is refused and nothing changes", async () => {
    expectError(await choose({ scale: { kind: 'hid' } }, terminal), 'SUPERVISOR_REQUIRED');
    expect((await call(s.origin, 'GET', SCALE, { token: terminal })).json).toMatchObject({ scale: { kind: 'manual' } });
  });

  it.each([
    [{ scale: { kind: 'serial', path: '/dev/../etc/passwd', protocol: 'mt_sics' } }, 'scale.path'],
    [{ scale: { kind: 'serial', path: 'ttyUSB0', protocol: 'mt_sics' } }, 'scale.path'],
    [{ scale: { kind: 'serial', path: '/dev/ttyUSB0', protocol: 'mt_sics', baud_rate: 9601 } }, 'scale.baud_rate'],
    [{ scale: { kind: 'serial', path: '/dev/ttyUSB0', protocol: 'ascii' } }, 'scale.protocol'],
    [{ scale: { kind: 'tcp', host: 'scale one', port: 4001, protocol: 'nci' } }, 'scale.host'],
    [{ scale: { kind: 'tcp', host: '10.0.0.7', port: 70000, protocol: 'nci' } }, 'scale.port'],
    [{ scale: { kind: 'wedge', prefix: 'not a key' } }, 'scale.prefix'],
    [{ scale: { kind: 'bluetooth' } }, 'scale.kind'],
    [{ scale: { kind: 'hid', extra: 1 } }, 'scale.extra'],
  ])('refuses %j on %s and keeps the scale it has', async (body, path) => {
    const details = expectError(await choose(body), 'VALIDATION_FAILED');
    expect((details.fields as Array<{ path: string }>).map((f) => f.path)).toContain(path);
    expect((await call(s.origin, 'GET', SCALE, { token: terminal })).json).toMatchObject({ scale: { kind: 'manual' } });
  });

  it('takes a serial scale with the usual 9600 baud, and lists the ports to choose from', async () => {
    const chosen = await choose({ scale: { kind: 'serial', path: '/dev/ttyUSB0', protocol: 'mt_sics' } });
    expect(chosen.status, chosen.text).toBe(200);
    expect(ScaleSettingsSchema.parse(chosen.json).scale).toEqual({ kind: 'serial', path: '/dev/ttyUSB0', baud_rate: 9600, protocol: 'mt_sics' });
    const ports = await call(s.origin, 'GET', `${SCALE}/ports`, { token: terminal });
    expect(ports.status).toBe(200);
    SerialPortListSchema.parse(ports.json);
  });
});

describe('reading the station scale', () => {
  it('answers the stable weight of a network scale, then says plainly when it is overloaded or silent', async () => {
    scale = await startScaleSimulator('nci', { weight: 4.2, unit: 'kg', movingFor: 2 });
    expect((await choose({ scale: { kind: 'tcp', host: '127.0.0.1', port: scale.port, protocol: 'nci' } })).status).toBe(200);
    const stable = await read();
    expect(stable.status, stable.text).toBe(200);
    expect(ScaleReadingSchema.parse(stable.json)).toEqual({
      state: 'stable',
      weight: 4.2,
      unit: 'kg',
      message: 'Stable: 4.2 kg.',
      scale: `NCI at 127.0.0.1:${scale.port}`,
    });
    scale.set({ over: true });
    expect((await read()).json).toMatchObject({ state: 'overload', weight: null });
    scale.set({ over: false, silent: true });
    expect((await read()).json).toMatchObject({ state: 'no_answer', weight: null });
  });

  it('reads one at a time: two terminals asking at once both get the weight', async () => {
    scale = await startScaleSimulator('mt_sics', { weight: 0.75, unit: 'kg' });
    await choose({ scale: { kind: 'tcp', host: '127.0.0.1', port: scale.port, protocol: 'mt_sics' } });
    const [a, b] = await Promise.all([read(), read(s.stationToken)]);
    expect([a.json, b.json]).toEqual([expect.objectContaining({ state: 'stable', weight: 0.75 }), expect.objectContaining({ state: 'stable', weight: 0.75 })]);
  });

  it('says the scale cannot be reached when nothing listens at its address', async () => {
    scale = await startScaleSimulator('mt_sics');
    const port = scale.port;
    await choose({ scale: { kind: 'tcp', host: '127.0.0.1', port, protocol: 'mt_sics' } });
    await scale.close();
    scale = undefined;
    expect((await read()).json).toMatchObject({ state: 'not_connected', message: expect.stringMatching(/Nothing answers/) });
  });
});
