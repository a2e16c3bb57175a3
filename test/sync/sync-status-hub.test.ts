import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type StationStore } from '../../electron/station/store/index.ts';
import { createOutboxLedger } from '../../electron/station/sync/outbox/outbox-ledger.ts';
import { writeUpstreamSettings } from '../../electron/station/sync/settings.ts';
import { syncStatusOf } from '../../electron/station/sync/status.ts';
import type { UpstreamSettings } from '../../electron/station/sync/upstream/upstream-client.ts';
import { tempDataDir } from '../store/fixtures.ts';

/*
 * When the hub is away the station says so by name: a station that joined a site's hub reports the hub
 * in its sync status (the header reads "Hub offline"), and an unreachable hub is named in the reason.
 * A returns service as the upstream is never called a hub. On a real store.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function open(): Promise<StationStore> {
  const { dir, cleanup } = await tempDataDir();
  const store = await openStore({ dataDir: dir });
  cleanups.push(async () => {
    await store.close();
    await cleanup();
  });
  return store;
}

const RETURNS_SERVICE: UpstreamSettings = { returns_url: 'https://returns.example', base_url: 'https://returns.example/api', token: 't', accounts: [1] };
const JOINED: UpstreamSettings = {
  returns_url: 'https://dock-hub.example:4781',
  base_url: 'https://dock-hub.example:4781/api',
  token: 't',
  accounts: [1],
  site: {
    hub_ca_pem: '-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----\n',
    hub_ca_sha256: Array.from({ length: 32 }, () => 'AB').join(':'),
    member_id: '3',
  },
};
const OFFLINE = { offline: true, error: null, backoffUntil: null };

describe('the sync status names the site’s hub', () => {
  it('a joined station reports its hub, and an unreachable hub by its address', async () => {
    const store = await open();
    await writeUpstreamSettings(store, JOINED, new Date().toISOString());
    const status = await syncStatusOf(store, createOutboxLedger(store), JOINED, OFFLINE, 'polling', 180_000);
    expect(status.hub).toEqual({ url: 'https://dock-hub.example:4781' });
    expect(status.state).toBe('offline');
    expect(status.last_error).toBe("The site's hub at dock-hub.example:4781 cannot be reached.");
  });

  it('a returns service is not a hub, even when unreachable', async () => {
    const store = await open();
    await writeUpstreamSettings(store, RETURNS_SERVICE, new Date().toISOString());
    const status = await syncStatusOf(store, createOutboxLedger(store), RETURNS_SERVICE, OFFLINE, 'polling', 180_000);
    expect(status.hub).toBeNull();
    expect(status.last_error).toBe('The upstream cannot be reached.');
  });
});
