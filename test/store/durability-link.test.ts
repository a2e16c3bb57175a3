import type { DBCore } from 'dexie';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { openStore, type StationStore, UnrecordedWriteError } from '../../electron/station/store/index.ts';
import { sampleReturn, tempDataDir } from './fixtures.ts';
import { call, expectError, returnBody, startStation } from '../api/support.ts';
import type * as RecordingModule from '../../electron/station/store/durability/recording-middleware.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * store.write waits for a transaction's durability record, which the recording middleware files
 * under the engine transaction of its DBCore requests and store.write finds under Dexie's
 * `tx.idbtrans`. Here that link is broken for real, as a Dexie upgrade could break it: the real
 * middleware files its records under other keys ("keyed differently"), or records nothing at all
 * ("stubbed"). A write that changed records must then be refused, not acknowledged before it is on
 * disk; a write that changed nothing needs no record and still succeeds.
 */

const link = vi.hoisted(() => ({ mode: 'intact' as 'intact' | 'keyed-differently' | 'not-recording' }));

vi.mock('../../electron/station/store/durability/recording-middleware.ts', async (importOriginal) => {
  type Module = typeof RecordingModule;
  const real = await importOriginal<Module>();
  // The real middleware, broken at each request as `link.mode` says (so a store opened intact can break later).
  const recordingMiddleware: Module['recordingMiddleware'] = (sink, records) => {
    // "Keyed differently": each transaction's record is filed under a stand-in object of its own.
    const aliases = new WeakMap<object, object>();
    const keyOf = (trans: object): object => {
      if (link.mode !== 'keyed-differently') return trans;
      let alias = aliases.get(trans);
      if (!alias) aliases.set(trans, (alias = {}));
      return alias;
    };
    const filed = {
      get: (trans: object) => records.get(keyOf(trans)),
      set: (trans: object, record: Parameters<typeof records.set>[1]) => records.set(keyOf(trans), record),
    } as unknown as typeof records;
    const middleware = real.recordingMiddleware(sink, filed);
    return {
      ...middleware,
      create(down) {
        const recording = middleware.create(down) as DBCore;
        return {
          ...recording,
          table(name: string) {
            const table = recording.table(name);
            const below = down.table(name);
            // "Not recording": mutations go straight down, as if the middleware were not there.
            return { ...table, mutate: (request) => (link.mode === 'not-recording' ? below.mutate(request) : table.mutate(request)) };
          },
        };
      },
    };
  };
  return { ...real, recordingMiddleware };
});

let dir: string;
let cleanup: () => Promise<void>;
let store: StationStore | undefined;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDataDir());
});
afterEach(async () => {
  link.mode = 'intact';
  await store?.close();
  store = undefined;
  await cleanup();
});

const addReturn = (s: StationStore, n: number) => s.write((t) => t.returns.add(sampleReturn(1, n)));

it('answers 500 INTERNAL_ERROR through the API, and acknowledges nothing, once the link breaks', async () => {
  const station = await startStation();
  try {
    const before = await call(station.origin, 'POST', '/returns', { token: station.account1, body: returnBody() });
    expect(before.status, before.text).toBe(200);
    link.mode = 'keyed-differently';
    const broken = await call(station.origin, 'POST', '/returns', { token: station.account1, body: returnBody() });
    expectError(broken, 'INTERNAL_ERROR');
    link.mode = 'intact';
    const after = await call(station.origin, 'POST', '/returns', { token: station.account1, body: returnBody() });
    expect(after.status, after.text).toBe(200);
  } finally {
    await station.close();
  }
});

it('acknowledges a write once its record is durable while the link holds', async () => {
  store = await openStore({ dataDir: dir });
  const id = await addReturn(store, 1);
  await store.close();
  store = await openStore({ dataDir: dir });
  expect((await insidesOf(store).db.returns.get(id))?.email).toBe('customer1@example.com');
});

for (const mode of ['keyed-differently', 'not-recording'] as const) {
  it(`refuses a write that changed records when the recording middleware is ${mode.replace('-', ' ')}`, async () => {
    link.mode = mode;
    store = await openStore({ dataDir: dir });
    await expect(addReturn(store, 1)).rejects.toThrow(UnrecordedWriteError);
    await expect(addReturn(store, 2)).rejects.toThrow(/Store invariant broken: a write changed records but its transaction has no durability record/);
    // Inside a nested write too: the outermost transaction is the one that must have a record.
    const opened = store;
    await expect(opened.write(() => opened.write((inner) => inner.returns.add(sampleReturn(1, 3))))).rejects.toThrow(UnrecordedWriteError);
    // A write that changes nothing needs no record.
    await expect(store.write((t) => t.returns.count())).resolves.toBe(3);
    await expect(store.write(() => 'nothing')).resolves.toBe('nothing');
  });
}
