import { afterEach, describe, expect, it } from 'vitest';
import { ContractError } from '../../electron/station/errors.ts';
import { handoverView, stepDown, takeUplink } from '../../electron/station/site/handover.ts';
import { membersIn, saveMembers, type StoredMember } from '../../electron/station/site/hub.ts';
import { type BoundTables, openStore, type StationStore } from '../../electron/station/store/index.ts';
import { saveUpstreamSettings, upstreamSettingsIn } from '../../electron/station/sync/settings.ts';
import { tempDataDir } from '../store/fixtures.ts';

/*
 * The old hub's side of moving the hub (docs/decisions/site-promote.md), on the real store: who may
 * be named, who may take the uplink, and what each step leaves behind. The whole move, through
 * `serve` and the command line, is test/sync/site-promote.test.ts.
 */

const NOW = '2026-11-28T06:00:00.000Z';
const uplink = { returns_url: 'https://returns.example', base_url: 'https://api.returns.example', token: 'rs-token', accounts: [1] };
const member = (id: number, removed = false): StoredMember => ({
  id,
  name: `dock ${id}`,
  joined_at: NOW,
  token_id: 100 + id,
  token_hash: `hash-${id}`,
  last_contact_at: null,
  pending_changes: null,
  removed_at: removed ? NOW : null,
});

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function hub(): Promise<StationStore> {
  const { dir, cleanup } = await tempDataDir();
  const store = await openStore({ dataDir: dir, hotSet: { sweepMs: 0 } });
  cleanups.push(async () => {
    await store.close();
    await cleanup();
  });
  await store.write(async (t) => {
    await saveUpstreamSettings(t, uplink, NOW);
    await saveMembers(t, [member(1), member(2), member(3, true)]);
  });
  return store;
}

const run = <T>(store: StationStore, fn: (t: BoundTables) => Promise<T>) => store.write((t) => fn(t));
async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ContractError)) throw new Error(`not refused: ${String(error)}`);
  return error.body.error_code;
}

describe("the old hub's side of site promote", () => {
  it('names only a live member; stepping down takes the uplink out of its sync in the same write', async () => {
    const store = await hub();
    expect(await refusal(run(store, (t) => stepDown(t, NOW, 9)))).toBe('NOT_FOUND');
    expect(await refusal(run(store, (t) => stepDown(t, NOW, 3)))).toBe('NOT_FOUND'); // removed
    expect(await upstreamSettingsIn(store.tables)).not.toBeNull(); // a refusal changed nothing

    await run(store, (t) => stepDown(t, NOW, 1));
    expect(await upstreamSettingsIn(store.tables)).toBeNull();
    expect(await handoverView(store.tables)).toEqual({ member_id: 1, stepped_down_at: NOW, taken_at: null });
    // Naming another member before the uplink is taken re-points it (the uplink kept from the first step).
    await run(store, (t) => stepDown(t, '2026-11-28T06:05:00.000Z', 2));
    expect(await handoverView(store.tables)).toEqual({ member_id: 2, stepped_down_at: NOW, taken_at: null });
  });

  it('gives the uplink to the named member only; the others are revoked, the taker may ask again', async () => {
    const store = await hub();
    expect(await refusal(run(store, (t) => takeUplink(t, NOW, 101)))).toBe('NOT_FOUND'); // nothing handed over yet
    await run(store, (t) => stepDown(t, NOW, 2));
    expect(await refusal(run(store, (t) => takeUplink(t, NOW, 101)))).toBe('NOT_SITE_MEMBER'); // member 1 is not named
    expect(await refusal(run(store, (t) => takeUplink(t, NOW, 999)))).toBe('NOT_SITE_MEMBER'); // no member's token

    const later = '2026-11-28T06:10:00.000Z';
    expect(await run(store, (t) => takeUplink(t, later, 102))).toEqual(uplink);
    expect((await membersIn(store.tables)).map((m) => [m.id, m.removed_at])).toEqual([
      [1, later],
      [2, null],
      [3, NOW],
    ]);
    expect(await run(store, (t) => takeUplink(t, '2026-11-28T06:20:00.000Z', 102))).toEqual(uplink);
    expect(await handoverView(store.tables)).toEqual({ member_id: 2, stepped_down_at: NOW, taken_at: later });
    // Once taken, this station is no hub: it names nobody again.
    expect(await refusal(run(store, (t) => stepDown(t, later, 2)))).toBe('NOT_FOUND');
  });
});
