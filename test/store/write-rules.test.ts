import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../electron/station/domain/clock.ts';
import { loadConfigCache } from '../../electron/station/domain/config-cache.ts';
import type { DomainContext, Script } from '../../electron/station/domain/context.ts';
import { createPackage } from '../../electron/station/domain/packages.ts';
import { CoalescedScriptNotRepeatableError, runCoalescedScript } from '../../electron/station/domain/script-batches.ts';
import { type BoundTables, ForeignAwaitInWriteError, openStore, type StationStore } from '../../electron/station/store/index.ts';
import { sampleReturn, tempDataDir } from './fixtures.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * The rules of a write script (docs/decisions/dexie-transactions.md, create-path.md), broken on
 * purpose: each breach fails loudly with an error of its own, not Dexie's generic ones or a quiet
 * partial write. (1) No await inside a write on anything but the store's own promises. (2) A
 * coalesced script may run twice and touches nothing but `t` (checked in the test runs, which set
 * RETURNS_STATION_CHECK_WRITE_RULES=1 in vitest.config.ts).
 */

let dir: string;
let cleanup: () => Promise<void>;
let store: StationStore;
let ctx: DomainContext;
let returnId: number;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDataDir());
  store = await openStore({ dataDir: dir });
  ctx = { store, clock: systemClock, config: await loadConfigCache(store) };
  returnId = await store.write((t) => t.returns.add(sampleReturn(1, 1)));
});
afterEach(async () => {
  await store.close();
  await cleanup();
});

const input = (tracking: string) => ({
  return_id: returnId,
  tracking_number: tracking,
  status: 'in_transit' as const,
  estimated_arrival: null,
  shipping_method: null,
  weight: null,
  weight_unit: 'kg' as const,
  length: null,
  width: null,
  height: null,
  dimension_unit: 'cm' as const,
  shipping_label_cost: null,
  shipping_label_cost_currency: null,
  carrier_id: null,
  location_id: null,
});
const create = (t: BoundTables, now: string, tracking: string) => createPackage(t, now, 1, input(tracking));
const returnsCount = () => insidesOf(store).db.returns.count();
/**
 * A foreign await: a timer, started once the engine has had its next turn (a bare short timer can
 * end before that turn on a busy loop, and the transaction then survives it: harmless, and nothing
 * to report).
 */
const sleep = (ms: number) => new Promise<void>((resolve) => setImmediate(() => setTimeout(resolve, ms)));

describe('no await on anything but the store inside a write', () => {
  it('refuses a write whose script awaited a timer between two changes, and says the first was committed', async () => {
    const write = store.write(async (t) => {
      await t.returns.add(sampleReturn(1, 2));
      await sleep(1);
      await t.returns.add(sampleReturn(1, 3));
    });
    await expect(write).rejects.toThrow(ForeignAwaitInWriteError);
    await expect(write).rejects.toMatchObject({ committedChanges: 1, cause: { name: 'TransactionInactiveError' } });
    await expect(write).rejects.toThrow(
      /Write rule broken: the transaction ended while its script was still running.*The 1 change\(s\) made before that await were committed/,
    );
    await store.flush();
    expect(await returnsCount()).toBe(2); // what the engine committed at the await is written, as it says
  });

  it('names the breach when the script swallows the failure, awaits before any change, or awaits a single turn', async () => {
    const swallowed = store.write(async (t) => {
      await t.returns.add(sampleReturn(1, 2));
      await new Promise((resolve) => setImmediate(resolve));
      await t.returns.add(sampleReturn(1, 3)).catch(() => undefined);
      return 'done';
    });
    await expect(swallowed).rejects.toThrow(ForeignAwaitInWriteError);
    const first = store.write(async (t) => {
      await sleep(1);
      return t.returns.add(sampleReturn(1, 4));
    });
    await expect(first).rejects.toThrow(ForeignAwaitInWriteError);
    await expect(first).rejects.toMatchObject({ committedChanges: 0 });
    await expect(first).rejects.toThrow(/Nothing of it was written/);
    await expect(store.write(async () => sleep(1))).rejects.toMatchObject({ name: 'ForeignAwaitInWriteError', cause: { name: 'PrematureCommitError' } });
  });

  it('leaves rule-abiding writes alone: awaits of the store, nested writes, a native microtask, failures of their own', async () => {
    await expect(
      store.write(async (t) => {
        const id = await t.returns.add(sampleReturn(1, 2));
        await Promise.resolve();
        await store.write((inner) => inner.returns.update(id, { email: 'nested@example.com' }));
        return (await t.returns.get(id))?.email;
      }),
    ).resolves.toBe('nested@example.com');
    const failing = store.write(async (t) => {
      await t.returns.add(sampleReturn(1, 3));
      throw new Error('the script failed');
    });
    await expect(failing).rejects.toThrow('the script failed');
    expect(await returnsCount()).toBe(2);
  });

  it('fails every script of a coalesced batch with the named error when one awaits a timer, running none of them again', async () => {
    const breaking: Script<unknown> = async (t, now) => {
      await create(t, now, 'RULE-BREAK');
      await sleep(1);
      return create(t, now, 'RULE-BREAK-2');
    };
    const [alone, ...batch] = await Promise.allSettled([
      runCoalescedScript(ctx, (t, now) => create(t, now, 'ALONE')),
      runCoalescedScript(ctx, (t, now) => create(t, now, 'BEFORE')),
      runCoalescedScript(ctx, breaking),
      runCoalescedScript(ctx, (t, now) => create(t, now, 'AFTER')),
    ]);
    expect(alone.status).toBe('fulfilled');
    for (const outcome of batch) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(ForeignAwaitInWriteError);
    }
    await store.flush();
    // Not run again: what the early commit wrote is there once, nothing after the await.
    const numbers = (await insidesOf(store).db.return_packages.toArray()).map((p) => p.tracking_number).sort();
    expect(numbers).toEqual([...new Set(numbers)]);
    expect(numbers).not.toContain('RULE-BREAK-2');
    expect(numbers).not.toContain('AFTER');
  });

  it('does the same in production, where batches are not rehearsed', async () => {
    vi.stubEnv('RETURNS_STATION_CHECK_WRITE_RULES', '0');
    vi.resetModules();
    try {
      // Fresh modules, which read the switch anew (their error classes are their own too).
      const batches = await import('../../electron/station/domain/script-batches.ts');
      const stores = await import('../../electron/station/store/index.ts');
      const fresh = await import('../../electron/station/store/insides.ts');
      const { dir: prodDir, cleanup: prodCleanup } = await tempDataDir();
      const prod = await stores.openStore({ dataDir: prodDir });
      try {
        const prodCtx: DomainContext = { store: prod, clock: systemClock, config: await loadConfigCache(prod) };
        await prod.write((t) => t.returns.add(sampleReturn(1, 1)));
        let runs = 0;
        const breaking: Script<unknown> = async (t, now) => {
          runs += 1;
          await create(t, now, 'RULE-BREAK');
          await sleep(1);
          return create(t, now, 'RULE-BREAK-2');
        };
        const [alone, ...batch] = await Promise.allSettled([
          batches.runCoalescedScript(prodCtx, (t, now) => create(t, now, 'ALONE')),
          batches.runCoalescedScript(prodCtx, (t, now) => create(t, now, 'BEFORE')),
          batches.runCoalescedScript(prodCtx, breaking),
          batches.runCoalescedScript(prodCtx, (t, now) => create(t, now, 'AFTER')),
        ]);
        expect(alone.status).toBe('fulfilled');
        for (const outcome of batch) expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(stores.ForeignAwaitInWriteError);
        // BEFORE's create and the first of RULE-BREAK's were committed at the await (each with its change-log entry and outbox slot).
        expect(((batch[0] as PromiseRejectedResult).reason as InstanceType<typeof stores.ForeignAwaitInWriteError>).committedChanges).toBe(6);
        expect(runs).toBe(1);
        await prod.flush();
        const numbers = (await fresh.insidesOf(prod).db.return_packages.toArray()).map((p) => p.tracking_number).sort();
        expect(numbers).toEqual(['ALONE', 'BEFORE', 'RULE-BREAK']);
      } finally {
        await prod.close();
        await prodCleanup();
      }
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});

describe('a coalesced script may run twice and touches nothing but t', () => {
  it('is on in the test runs', () => {
    expect(process.env.RETURNS_STATION_CHECK_WRITE_RULES).toBe('1');
  });

  it('fails a script that keeps a counter of its own, and shows the side effect done twice', async () => {
    let runs = 0;
    const counting: Script<unknown> = async (t, now) => {
      runs += 1;
      return create(t, now, `COUNTED-${runs}`);
    };
    await expect(runCoalescedScript(ctx, counting)).rejects.toThrow(CoalescedScriptNotRepeatableError);
    await expect(runCoalescedScript(ctx, counting)).rejects.toThrow(
      /Write rule broken: a coalesced script answered differently when it ran again on the same state/,
    );
    expect(runs).toBe(4);
  });

  it('fails a script that changes its input, in a shared batch too, and answers the others', async () => {
    const items = ['X'];
    const changing: Script<unknown> = async (t, now) => {
      items.push('Y');
      return { created: await create(t, now, 'CHANGING'), items: items.length };
    };
    const [first, second, third] = await Promise.allSettled([
      runCoalescedScript(ctx, (t, now) => create(t, now, 'FIRST')),
      runCoalescedScript(ctx, changing),
      runCoalescedScript(ctx, (t, now) => create(t, now, 'THIRD')),
    ]);
    expect(first.status).toBe('fulfilled');
    expect((second as PromiseRejectedResult).reason).toBeInstanceOf(CoalescedScriptNotRepeatableError);
    expect(third.status).toBe('fulfilled');
  });

  it('answers a script that reads and writes through t alone', async () => {
    const spy = vi.fn((t: BoundTables, now: string) => create(t, now, 'WELL-BEHAVED'));
    await expect(runCoalescedScript(ctx, spy)).resolves.toMatchObject({ tracking_number: 'WELL-BEHAVED' });
    expect(spy).toHaveBeenCalledTimes(2);
  });
});
