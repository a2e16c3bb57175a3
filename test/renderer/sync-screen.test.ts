import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../shared/api/client.ts';
import { createSyncScreenStore } from '../../renderer/src/sync/sync-store.ts';
import { createReturn, startStation, type TestStation } from '../api/support.ts';
import { StationCable } from './station-cable.ts';

/*
 * The sync screen's store against a real station: a supervisor sets the upstream, sees it (never its
 * token), gets a clear message for bad settings without losing the saved ones, and switches sync off.
 */

let ts: TestStation;
beforeAll(async () => {
  ts = await startStation();
});
afterAll(async () => {
  await ts.close();
});

describe('the sync screen', () => {
  it('sets, shows and switches off the upstream; bad settings are refused and change nothing', async () => {
    const cable = new StationCable(ts);
    const screen = createSyncScreenStore(cable.client());
    await screen.getState().reload();
    expect(screen.getState().overview?.upstream).toBeNull();
    expect(screen.getState().overview?.status.state).toBe('disabled');

    expect(await screen.getState().saveUpstream({ url: 'http://127.0.0.1:9/returns', token: 'secret-upstream-token', accounts: [1] })).toBe(true);
    expect(screen.getState().message).toBe('Upstream saved: syncing now.');
    const saved = screen.getState().overview?.upstream;
    expect(saved).toMatchObject({ accounts: [1], token_set: true });
    expect(saved).toMatchObject({ returns_url: 'http://127.0.0.1:9/returns', base_url: 'http://127.0.0.1:9/returns/api' });
    expect(JSON.stringify(screen.getState().overview)).not.toContain('secret-upstream-token');

    expect(await screen.getState().saveUpstream({ url: 'not an address', token: 'x', accounts: [1] })).toBe(false);
    expect(screen.getState().message).toMatch(/url/i);
    await screen.getState().reload();
    expect(screen.getState().overview?.upstream).toEqual(saved);
    // The spec's two addresses, each on its own path.
    expect(await screen.getState().saveUpstream({ returns_url: 'http://127.0.0.1:9/r/', base_url: 'http://127.0.0.1:9/b', token: 'x', accounts: [1] })).toBe(
      true,
    );
    expect(screen.getState().overview?.upstream).toMatchObject({ returns_url: 'http://127.0.0.1:9/r', base_url: 'http://127.0.0.1:9/b' });

    await screen.getState().removeUpstream();
    expect(screen.getState().message).toBe('Sync switched off. Waiting changes stay queued.');
    expect(screen.getState().overview?.upstream).toBeNull();
  });

  it('says so when the station cannot be reached, and keeps what it showed', async () => {
    const cable = new StationCable(ts);
    const screen = createSyncScreenStore(cable.client());
    await screen.getState().reload();
    const shown = screen.getState().overview;
    cable.down = true;
    await screen.getState().reload();
    expect(screen.getState().loadError).toBe('The station cannot be reached. Your work stays on screen; try again when it is back.');
    expect(screen.getState().overview).toEqual(shown);
    cable.down = false;
    await screen.getState().reload();
    expect(screen.getState().loadError).toBeNull();
  });

  it('a first load that fails is not shown as "nothing waiting", and the next load shows the waiting changes', async () => {
    await createReturn(ts.origin, ts.account1);
    const cable = new StationCable(ts);
    const screen = createSyncScreenStore(cable.client());
    cable.down = true;
    await screen.getState().reload();
    expect(screen.getState().loaded).toBe(false);
    expect(screen.getState().loadError).toMatch(/cannot be reached/);
    cable.down = false;
    await screen.getState().reload();
    expect(screen.getState().loaded).toBe(true);
    expect(screen.getState().changes.length).toBeGreaterThan(0);
  });

  it('of two loads that overlap, the newer answer is the one shown, whichever arrives last', async () => {
    const cable = new StationCable(ts);
    // The first load's list of changes is held back until the second load has answered.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let listsAsked = 0;
    const client = new ApiClient({
      baseUrl: ts.origin,
      token: ts.stationToken,
      fetch: async (input, init) => {
        if (new URL(input).pathname.endsWith('/sync/changes') && (listsAsked += 1) === 1) {
          const answer = await cable.fetch(input, init);
          await held;
          return answer;
        }
        return cable.fetch(input, init);
      },
    });
    const screen = createSyncScreenStore(client);
    const older = screen.getState().reload();
    await vi.waitFor(() => expect(listsAsked).toBe(1));
    await createReturn(ts.origin, ts.account1);
    await screen.getState().reload();
    const newer = screen.getState().total;
    release();
    await older;
    expect(screen.getState().total).toBe(newer);
  });
});
