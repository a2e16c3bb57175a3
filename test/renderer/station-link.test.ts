import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../shared/api/client.ts';
import { StationBack, untilLanded } from '../../shared/api/retry-policy.ts';
import { announceStationBack, createStationLink } from '../../renderer/src/state/station-link.ts';
import { createStationSettingsStore } from '../../renderer/src/state/station-settings.ts';
import { startStation, type TestStation } from '../api/support.ts';
import { StationCable } from './station-cable.ts';

/*
 * The UI's link to its station against a real station: what the header shows (online or not, the
 * station's health, accounts and today's counts) and the station's settings reaching this terminal,
 * with the last known kept on screen while the station cannot be reached.
 */

let ts: TestStation;
beforeAll(async () => {
  ts = await startStation();
});
afterAll(async () => {
  await ts.close();
});

function linkOver(cable: StationCable) {
  const settings = createStationSettingsStore(cable.client());
  const link = createStationLink(cable.client(), settings);
  return { link, settings };
}

const connection = () => ({ baseUrl: ts.origin, token: ts.stationToken, version: '' });

describe('the station link', () => {
  it('says the station is online with its health, accounts and settings, and takes another terminal’s settings change at the next poll', async () => {
    const cable = new StationCable(ts);
    const { link, settings } = linkOver(cable);
    expect(link.getState().link).toBe('connecting');
    const stop = link.getState().watch(connection(), 50);
    try {
      await vi.waitFor(() => expect(link.getState().status).not.toBeNull());
      expect(link.getState().link).toBe('online');
      expect(link.getState().health?.version).toEqual(expect.any(String));
      expect(link.getState().status?.accounts.length).toBeGreaterThan(0);
      expect(settings.getState().updatedAt).not.toBeUndefined();

      await new ApiClient({ baseUrl: ts.origin, token: ts.stationToken }).updateStationSettings({ currency: 'EUR' });
      await vi.waitFor(() => expect(settings.getState().currency).toBe('EUR'));
    } finally {
      stop();
    }
  });

  it('says the station cannot be reached and keeps the last health and status on screen, then comes back online', async () => {
    const cable = new StationCable(ts);
    const { link } = linkOver(cable);
    const stop = link.getState().watch(connection(), 50);
    try {
      await vi.waitFor(() => expect(link.getState().status).not.toBeNull());
      const { health, status } = link.getState();
      cable.down = true;
      await vi.waitFor(() => expect(link.getState().link).toBe('unreachable'));
      expect(link.getState().health).toEqual(health);
      expect(link.getState().status).toEqual(status);
      cable.down = false;
      await vi.waitFor(() => expect(link.getState().link).toBe('online'));
    } finally {
      stop();
    }
  });

  it('ends every retry’s wait when the station answers again: held work goes at once, not after its backoff', async () => {
    const cable = new StationCable(ts);
    const { link } = linkOver(cable);
    const back = new StationBack();
    const stopAnnouncing = announceStationBack(link, back);
    const stop = link.getState().watch(connection(), 50);
    try {
      await vi.waitFor(() => expect(link.getState().link).toBe('online'));
      cable.down = true;
      // A change sent while the station is away, whose next try would come only after a minute.
      const retried: unknown[] = [];
      const sent = untilLanded(() => cable.client().station(), { firstMs: 60_000, maxMs: 60_000, stationBack: back }, { onRetry: (e) => retried.push(e) });
      await vi.waitFor(() => expect(retried).toHaveLength(1));
      await vi.waitFor(() => expect(link.getState().link).toBe('unreachable'));
      cable.down = false;
      // The next poll finds the station: the waiting try goes then.
      await expect(sent).resolves.toMatchObject({ accounts: expect.any(Array) });
      expect(retried).toHaveLength(1);
    } finally {
      stop();
      stopAnnouncing();
    }
  });

  it('stops asking once stopped, and asks nothing for its status before it has a connection', async () => {
    const cable = new StationCable(ts);
    const { link } = linkOver(cable);
    await link.getState().refreshStatus();
    expect(cable.requests).toEqual([]);
    const stop = link.getState().watch(connection(), 20);
    await vi.waitFor(() => expect(cable.requests.length).toBeGreaterThanOrEqual(4));
    stop();
    // Counted as they are asked, not as answered: an answer still on its way under load is no new ask.
    const asked = cable.asked.length;
    await new Promise((r) => setTimeout(r, 150));
    expect(cable.asked.length).toBe(asked);
  });
});
