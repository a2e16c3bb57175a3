import { afterEach, describe, expect, it } from 'vitest';
import { markChanged } from '../../electron/station/domain/outbox.ts';
import { openStore, type ReturnPackage, type ReturnRecord, type StationStore } from '../../electron/station/store/index.ts';
import { putLink } from '../../electron/station/sync/links/upstream-links.ts';
import { saveSiteTrust, saveUpstreamSettings } from '../../electron/station/sync/settings.ts';
import type { UpstreamSettings } from '../../electron/station/sync/upstream/upstream-client.ts';
import { samplePackage, sampleReturn, tempDataDir } from '../store/fixtures.ts';

/*
 * Links belong to one upstream (docs/decisions/site-promote.md, sync/links/relink.ts): new settings that
 * name another upstream drop them in their own write and make every unsent change wait for a read;
 * a new token, or the same hub's authority rolling to its successor, keeps them. On the real store.
 */

const ACCOUNT = 1;
const NOW = '2026-11-28T06:00:00.000Z';
const LATER = '2026-11-28T07:00:00.000Z';
const fingerprint = (byte: string) => Array.from({ length: 32 }, () => byte).join(':');
const pem = (name: string) => `-----BEGIN CERTIFICATE-----\n${name}\n-----END CERTIFICATE-----\n`;

const returnsService: UpstreamSettings = {
  returns_url: 'https://returns.example',
  base_url: 'https://api.returns.example',
  token: 'rs-token',
  accounts: [ACCOUNT],
};
const hubOf = (host: string, ca: string): UpstreamSettings => ({
  returns_url: `https://${host}:4780`,
  base_url: `https://${host}:4780/api`,
  token: `member-of-${host}`,
  accounts: [ACCOUNT],
  site: { hub_ca_pem: pem(ca), hub_ca_sha256: fingerprint(ca), member_id: '3' },
});

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A station synced with `settings`: a return and three packages linked, one with an unsent change held for a person, one cancelled with its cancel unsent. */
async function syncedStation(
  settings: UpstreamSettings,
): Promise<{ store: StationStore; ret: ReturnRecord; held: ReturnPackage; clean: ReturnPackage; cancelled: ReturnPackage }> {
  const { dir, cleanup } = await tempDataDir();
  const store = await openStore({ dataDir: dir, hotSet: { sweepMs: 0 } });
  cleanups.push(async () => {
    await store.close();
    await cleanup();
  });
  const made = await store.write(async (t) => {
    await saveUpstreamSettings(t, settings, NOW);
    const retId = await t.returns.add(sampleReturn(ACCOUNT, 1) as ReturnRecord);
    const heldId = await t.return_packages.add(samplePackage(ACCOUNT, retId, 1) as ReturnPackage);
    const cleanId = await t.return_packages.add(samplePackage(ACCOUNT, retId, 2) as ReturnPackage);
    await putLink(t, { kind: 'return', local_id: retId, account_id: ACCOUNT, upstream_id: 500, synced: {} }, NOW);
    await putLink(t, { kind: 'return_package', local_id: heldId, account_id: ACCOUNT, upstream_id: 700, synced: {} }, NOW);
    await putLink(t, { kind: 'return_package', local_id: cleanId, account_id: ACCOUNT, upstream_id: 701, synced: {} }, NOW);
    const cancelledId = await t.return_packages.add(samplePackage(ACCOUNT, retId, 3, { status: 'cancelled' }) as ReturnPackage);
    await putLink(t, { kind: 'return_package', local_id: cancelledId, account_id: ACCOUNT, upstream_id: 702, synced: {} }, NOW);
    await markChanged(t, 'return_package', cancelledId, ACCOUNT, NOW);
    await markChanged(t, 'return_package', heldId, ACCOUNT, NOW);
    const slot = await t.outbox.get(`return_package:${heldId}`);
    if (slot) await t.outbox.put({ ...slot, hold: 'parked', attempts: 3, error: { status: 422, code: null, message: 'refused' } });
    await t.sync_state.put({
      account_id: ACCOUNT,
      packages: { updated_at: NOW, page: 4, round_since: null, round_max: null, seen: 9, total: 9 },
      returns: { updated_at: NOW, page: 2, round_since: null, round_max: null, seen: 3, total: 3 },
      paused: null,
      last_success_at: NOW,
    });
    return { retId, heldId, cleanId, cancelledId };
  });
  const ret = await store.tables.returns.get(made.retId);
  const held = await store.tables.return_packages.get(made.heldId);
  const clean = await store.tables.return_packages.get(made.cleanId);
  const cancelled = await store.tables.return_packages.get(made.cancelledId);
  if (!ret || !held || !clean || !cancelled) throw new Error('not stored');
  return { store, ret, held, clean, cancelled };
}

const save = (store: StationStore, settings: UpstreamSettings) => store.write((t) => saveUpstreamSettings(t, settings, LATER));
const links = (store: StationStore) => store.tables.upstream_links.count();
const slots = async (store: StationStore) => Object.fromEntries((await store.tables.outbox.all()).map((slot) => [slot.key, slot]));

describe('links made again for a new upstream', () => {
  it('keeps the links for a new token of the same returns service, and for the same hub whose authority rolled', async () => {
    const { store } = await syncedStation(returnsService);
    expect(await save(store, { ...returnsService, token: 'rotated' })).toBeNull();
    expect(await links(store)).toBe(4);

    const member = await syncedStation(hubOf('hub-a', 'AA'));
    const rolled = hubOf('hub-a', 'BB');
    await member.store.write((t) => saveSiteTrust(t, { hub_ca_pem: pem('BB'), hub_ca_sha256: fingerprint('BB') }));
    // Joining the same hub again (it now serves its successor): the same hub, the same links.
    expect(await save(member.store, { ...rolled, token: 'new-member-token' })).toBeNull();
    expect(await links(member.store)).toBe(4);
    expect((await member.store.tables.sync_state.get(ACCOUNT))?.relinked_at).toBeUndefined();
  });

  it('a member taking the returns service drops the links, checks every record and starts over with a full read', async () => {
    const { store, ret, held, clean, cancelled } = await syncedStation(hubOf('hub-a', 'AA'));
    expect(await save(store, returnsService)).toBe('takes-uplink');
    expect(await links(store)).toBe(0);
    const state = await store.tables.sync_state.get(ACCOUNT);
    expect(state).toMatchObject({ relinked_at: LATER, packages: { updated_at: null, page: 1 }, returns: { updated_at: null, page: 1 } });
    expect(state?.lists).toBeUndefined();
    const waiting = await slots(store);
    // A cancelled package waits for the read too: found there by tracking number, its cancel goes up.
    for (const key of [`return:${ret.id}`, `return_package:${held.id}`, `return_package:${clean.id}`, `return_package:${cancelled.id}`]) {
      // Nothing is sent before a read proved it absent upstream; a change held for a person gets a new try.
      expect(waiting[key], key).toMatchObject({ create_attempted_at: LATER, hold: null, attempts: 0, error: null });
    }
  });

  it('a member moving to another hub checks only what it holds unsent (and its returns, claimed by content)', async () => {
    const { store, ret, held, clean } = await syncedStation(hubOf('hub-a', 'AA'));
    expect(await save(store, hubOf('hub-b', 'CC'))).toBe('new-upstream');
    expect(await links(store)).toBe(0);
    const waiting = await slots(store);
    expect(waiting[`return_package:${held.id}`]).toMatchObject({ create_attempted_at: LATER, hold: null });
    expect(waiting[`return:${ret.id}`]).toMatchObject({ create_attempted_at: LATER });
    expect(waiting[`return_package:${clean.id}`]).toBeUndefined();
  });
});
