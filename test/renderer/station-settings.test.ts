import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../shared/api/client.ts';
import { createStationSettingsStore } from '../../renderer/src/state/station-settings.ts';
import { startStation, type TestStation } from '../api/support.ts';
import { StationCable } from './station-cable.ts';

/*
 * A terminal's station settings against a real station: a change made here is the station's (every
 * terminal reads it), a refused or unsent change says why and changes nothing, and the settings an
 * earlier version kept in this terminal's browser are handed over once to a station that has none.
 */

describe('changing the station settings from a terminal', () => {
  let ts: TestStation;
  beforeAll(async () => {
    ts = await startStation();
  });
  afterAll(async () => {
    await ts.close();
  });

  it('is the station’s change: this terminal shows it and another terminal reads it', async () => {
    const settings = createStationSettingsStore(new StationCable(ts).client());
    expect(await settings.getState().change({ scanner: { prefix: 'F12' }, unset_conditions: 'allow' })).toBeNull();
    expect(settings.getState()).toMatchObject({ framing: { prefix: 'F12', suffix: 'Enter' }, unsetConditions: 'allow' });
    const other = new ApiClient({ baseUrl: ts.origin, token: ts.stationToken });
    expect((await other.station()).settings).toMatchObject({
      scanner: { prefix: 'F12' },
      unset_conditions: 'allow',
      updated_at: settings.getState().updatedAt,
    });
  });

  it('refused or unsent, says why and keeps what it had', async () => {
    const cable = new StationCable(ts);
    const settings = createStationSettingsStore(cable.client());
    expect(await settings.getState().change({ currency: 'CHF' })).toBeNull();
    const before = settings.getState();
    expect(await settings.getState().change({ scanner: { prefix: 'F12', suffix: 'F12' } })).toMatch(/^Refused by the station: scanner\.suffix/);
    cable.down = true;
    expect(await settings.getState().change({ currency: 'EUR' })).toBe('The station cannot be reached. Your work stays on screen; try again when it is back.');
    expect(settings.getState()).toEqual(before);
    cable.down = false;
    expect((await cable.client().stationSettings()).currency).toBe('CHF');
  });

  it('takes the settings of a status poll only when they changed', async () => {
    const client = new StationCable(ts).client();
    const settings = createStationSettingsStore(client);
    const changes = vi.fn();
    settings.subscribe(changes);
    const { settings: polled } = await client.station();
    settings.getState().adopt(polled);
    settings.getState().adopt((await client.station()).settings);
    expect(changes).toHaveBeenCalledTimes(1);
    await client.updateStationSettings({ currency: 'JPY' });
    settings.getState().adopt((await client.station()).settings);
    expect(changes).toHaveBeenCalledTimes(2);
    expect(settings.getState().currency).toBe('JPY');
  });
});

/** The browser storage of a terminal an earlier version ran in (Node has none of its own). */
class TerminalStorage {
  readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

describe('the settings an earlier version kept in a terminal', () => {
  let ts: TestStation;
  let storage: TerminalStorage;
  beforeAll(async () => {
    ts = await startStation();
  });
  afterAll(async () => {
    await ts.close();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function oldTerminal(values: Record<string, string>) {
    storage = new TerminalStorage();
    for (const [key, value] of Object.entries(values)) storage.setItem(`returns-station.${key}`, value);
    vi.stubGlobal('localStorage', storage);
  }

  it('are handed over once the station can be reached, to a station that never had settings, then forgotten here', async () => {
    oldTerminal({ 'scanner.prefix': 'F9', 'scanner.suffix': 'Tab', currency: 'GBP', 'receive.unset-conditions': 'allow' });
    const cable = new StationCable(ts);
    const settings = createStationSettingsStore(cable.client());
    const station = await cable.client().station();
    expect(station.settings.updated_at).toBeNull();

    cable.down = true;
    settings.getState().adopt(station.settings);
    // Unsent: kept in the terminal, and the next status that says the station has none tries again.
    await vi.waitFor(() => expect(settings.getState().updatedAt).toBeUndefined());
    expect(storage.items.size).toBe(4);

    cable.down = false;
    settings.getState().adopt(station.settings);
    await vi.waitFor(() => expect(settings.getState().framing).toEqual({ prefix: 'F9', suffix: 'Tab' }));
    expect(settings.getState()).toMatchObject({ currency: 'GBP', unsetConditions: 'allow' });
    expect(await cable.client().stationSettings()).toMatchObject({ scanner: { prefix: 'F9', suffix: 'Tab' }, currency: 'GBP', unset_conditions: 'allow' });
    expect(storage.items.size).toBe(0);
  });

  it('are forgotten when the station refuses them, and the station keeps its own', async () => {
    const client = new StationCable(ts).client();
    const kept = await client.updateStationSettings({ currency: 'EUR' });
    oldTerminal({ 'scanner.prefix': 'not a key' });
    const settings = createStationSettingsStore(client);
    // As a station that never had settings would answer: the hand-over is tried.
    settings.getState().adopt({ ...kept, updated_at: null });
    await vi.waitFor(() => expect(storage.items.size).toBe(0));
    expect(await client.stationSettings()).toEqual(kept);
  });
});
