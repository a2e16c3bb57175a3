import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type OutboxEntry, type StationStore } from '../../electron/station/store/index.ts';
import { createSyncEngine } from '../../electron/station/sync/sync-engine.ts';
import { createOutboxLedger } from '../../electron/station/sync/outbox/outbox-ledger.ts';
import { removeUpstreamSettings, writeUpstreamSettings } from '../../electron/station/sync/settings.ts';
import { tempDataDir } from '../store/fixtures.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * The outbox's ledger (sync/outbox/outbox-ledger.ts) counts the waiting changes the sync status shows and
 * finds the next backed-off one without reading the outbox: it must agree with a read of the outbox
 * after any sequence of writes, writes racing its first read, and a failed commit's repair.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function open(hooks: { beforeCommit?: () => void; beforeSync?: () => Promise<void> } = {}): Promise<StationStore> {
  const { dir, cleanup } = await tempDataDir();
  const store = await openStore({ dataDir: dir, ...hooks });
  cleanups.push(async () => {
    await store.close();
    await cleanup();
  });
  return store;
}

const slot = (id: number, account: number, extra: Partial<OutboxEntry> = {}): OutboxEntry => ({
  key: `return_package:${id}`,
  kind: 'return_package',
  local_id: id,
  account_id: account,
  queued_at: '2026-11-23T10:00:00.000Z',
  changed_at: '2026-11-23T10:00:00.000Z',
  attempts: 0,
  next_attempt_at: null,
  create_attempted_at: null,
  hold: null,
  error: null,
  ...extra,
});

const put = (store: StationStore, ...slots: OutboxEntry[]) => store.write((t) => t.outbox.bulkPut(slots));

/** What a read of the outbox says (the truth the ledger must agree with); the next retry is of every account's. */
async function readBack(store: StationStore, accounts: number[]) {
  const all = await insidesOf(store).db.outbox.toArray();
  const entries = all.filter((e) => accounts.includes(e.account_id));
  const due = all.filter((e) => e.hold === null && e.next_attempt_at !== null).map((e) => Date.parse(e.next_attempt_at ?? ''));
  return { pending: entries.length, held: entries.filter((e) => e.hold !== null).length, nextRetryAt: due.length ? Math.min(...due) : undefined };
}

async function ledgerSays(ledger: ReturnType<typeof createOutboxLedger>, accounts: number[]) {
  return { ...(await ledger.count(accounts)), nextRetryAt: await ledger.nextRetryAt() };
}

describe("the outbox's ledger", () => {
  it('counts what waits per account, what is held, and finds the next retry, as the slots change', async () => {
    const store = await open();
    await put(store, slot(1, 1), slot(2, 1), slot(3, 2));
    const ledger = createOutboxLedger(store);
    expect(await ledgerSays(ledger, [1])).toEqual({ pending: 2, held: 0, nextRetryAt: undefined });

    await put(
      store,
      slot(2, 1, { hold: 'parked', error: { status: 422, code: 'VALIDATION_FAILED', message: 'refused' } }),
      slot(3, 2, { attempts: 2, next_attempt_at: '2026-11-23T10:05:00.000Z' }),
      slot(4, 2),
    );
    await put(store, slot(5, 1, { attempts: 1, next_attempt_at: '2026-11-23T10:01:00.000Z', hold: 'parked' })); // held: not a retry
    for (const accounts of [[1], [2], [1, 2], [3]]) expect(await ledgerSays(ledger, accounts)).toEqual(await readBack(store, accounts));
    expect(await ledgerSays(ledger, [1, 2])).toEqual({ pending: 5, held: 2, nextRetryAt: Date.parse('2026-11-23T10:05:00.000Z') });

    await store.write((t) => t.outbox.bulkDelete(['return_package:2', 'return_package:3']));
    expect(await ledgerSays(ledger, [1, 2])).toEqual({ pending: 3, held: 1, nextRetryAt: undefined });
    ledger.stop();
  });

  it("gives a push round an account's due slots in the order they are sent: returns first, oldest change first, none held or backed off", async () => {
    const store = await open();
    const at = (minute: number) => `2026-11-23T10:${String(minute).padStart(2, '0')}:00.000Z`;
    const ret = (id: number, extra: Partial<OutboxEntry> = {}) => slot(id, 1, { key: `return:${id}`, kind: 'return', ...extra });
    await put(
      store,
      slot(1, 1, { queued_at: at(1) }),
      ret(2, { queued_at: at(9) }),
      slot(3, 1, { queued_at: at(0) }),
      slot(4, 2, { queued_at: at(0) }), // another account's
      slot(5, 1, { queued_at: at(1) }), // same instant as 1: the older record first
      ret(6, { queued_at: at(3) }),
      slot(7, 1, { queued_at: at(0), hold: 'parked' }),
      slot(8, 1, { queued_at: at(0), attempts: 1, next_attempt_at: at(30) }), // backed off past now
      slot(9, 1, { queued_at: at(2), attempts: 1, next_attempt_at: at(20) }), // due again at now
    );
    const ledger = createOutboxLedger(store);
    const now = Date.parse(at(20));
    expect(await ledger.due(1, now)).toEqual(['return:6', 'return:2', 'return_package:3', 'return_package:1', 'return_package:5', 'return_package:9']);
    expect(await ledger.due(2, now)).toEqual(['return_package:4']);

    // It follows the slots: a sent one is gone, a parked one leaves, a change to an old one keeps its place.
    await store.write((t) => t.outbox.delete('return:6'));
    await put(store, slot(3, 1, { queued_at: at(0), hold: 'gone' }), slot(1, 1, { queued_at: at(1), changed_at: at(15) }), slot(10, 1, { queued_at: at(12) }));
    expect(await ledger.due(1, now)).toEqual(['return:2', 'return_package:1', 'return_package:5', 'return_package:9', 'return_package:10']);
    ledger.stop();
  });

  it('agrees with the outbox when writes commit while it reads the outbox the first time', async () => {
    const store = await open();
    await put(store, ...Array.from({ length: 2_000 }, (_, i) => slot(i + 1, 1 + (i % 2))));
    const ledger = createOutboxLedger(store);
    const writes = (async () => {
      for (let i = 0; i < 20; i++) {
        await put(store, slot(10_000 + i, 1), slot(1 + i * 2, 1, { hold: 'parked' }));
        await store.write((t) => t.outbox.delete(`return_package:${2 + i * 2}`));
      }
    })();
    const [first] = await Promise.all([ledger.count([1, 2]), writes]);
    expect(first.pending).toBeGreaterThan(0);
    expect(await ledgerSays(ledger, [1, 2])).toEqual(await readBack(store, [1, 2]));
    expect(await ledgerSays(ledger, [1])).toEqual(await readBack(store, [1]));
    ledger.stop();
  });

  it('answers only once the writes already made in memory are durable, so the status agrees with the sync screen read from memory', async () => {
    let release: (() => void) | undefined;
    let holdSyncs = false;
    const store = await open({ beforeSync: () => (holdSyncs ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve()) });
    await put(store, slot(1, 1), slot(2, 1));
    const ledger = createOutboxLedger(store);
    expect((await ledger.count([1])).pending).toBe(2);
    holdSyncs = true;
    const deleted = store.write((t) => t.outbox.delete('return_package:1'));
    // Gone from memory (what the sync screen's list reads), its fsync held back.
    while ((await insidesOf(store).db.outbox.get('return_package:1')) !== undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    let answered: { pending: number } | undefined;
    const counting = ledger.count([1]).then((count) => (answered = count));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBeUndefined();
    holdSyncs = false;
    release?.();
    await deleted;
    expect(await counting).toEqual({ pending: 1, held: 0 });
    ledger.stop();
  });

  it('reads the outbox again after a failed commit was repaired, and agrees with it', async () => {
    let fail = false;
    const store = await open({
      beforeCommit: () => {
        if (fail) throw new Error('disk I/O error (injected)');
      },
    });
    await put(store, slot(1, 1), slot(2, 1));
    const ledger = createOutboxLedger(store);
    expect((await ledger.count([1])).pending).toBe(2);
    fail = true;
    await expect(put(store, slot(3, 1), slot(1, 1, { hold: 'parked' }))).rejects.toThrow();
    fail = false;
    expect(await ledgerSays(ledger, [1])).toEqual(await readBack(store, [1]));
    expect(await ledgerSays(ledger, [1])).toEqual({ pending: 2, held: 0, nextRetryAt: undefined });
    await put(store, slot(4, 1));
    expect((await ledger.count([1])).pending).toBe(3);
    ledger.stop();
  });

  it('holds nothing while no upstream is set, however many changes wait for a later one; counts them once one is, and lets go when it is removed', async () => {
    const store = await open();
    const clock = { now: () => '2026-11-23T12:00:00.000Z' };
    // Nothing answers: a round with an upstream set finds it offline.
    const engine = createSyncEngine({ store, clock, fetch: () => Promise.reject(new Error('unreachable')) });
    await put(store, ...Array.from({ length: 300 }, (_, i) => slot(i + 1, 1)));

    // Without an upstream: rounds, the next retry and the status ask nothing of the outbox.
    await engine.runRound({ pull: true });
    expect(await engine.nextRetryAt()).toBeUndefined();
    expect((await engine.refreshStatus()).pending_changes).toBe(0);
    await put(store, ...Array.from({ length: 100 }, (_, i) => slot(1_000 + i, 1)));
    expect(engine.outboxSlotsInMemory()).toBe(0);

    await writeUpstreamSettings(store, { returns_url: 'http://127.0.0.1:9', base_url: 'http://127.0.0.1:9/api', token: 'unused', accounts: [1] }, clock.now());
    expect((await engine.refreshStatus()).pending_changes).toBe(400);
    expect(engine.outboxSlotsInMemory()).toBe(400);

    await removeUpstreamSettings(store);
    await engine.runRound({ pull: false });
    expect(engine.outboxSlotsInMemory()).toBe(0);
    await put(store, slot(2_000, 1));
    expect(await engine.nextRetryAt()).toBeUndefined();
    expect(engine.outboxSlotsInMemory()).toBe(0);
    // The backlog is all still there for the next upstream.
    expect(await insidesOf(store).db.outbox.count()).toBe(401);
  });
});
