import { expect, it } from 'vitest';
import { oneAtATime } from '../../electron/station/sync/one-at-a-time.ts';

/* The sync status refresh runs one at a time (docs/decisions/create-path.md); its callers must still get fresh answers. */

/** A task whose runs are counted and finished by hand, each answering the state as it was when the run started. */
function manualTask() {
  let state = 0;
  const finish: Array<(error?: Error) => void> = [];
  const task = oneAtATime(() => {
    const seen = state;
    return new Promise<number>((resolve, reject) => finish.push((error) => (error ? reject(error) : resolve(seen))));
  });
  return { task, finish, runs: () => finish.length, change: () => (state += 1) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

it('starts one run at a time; calls made during a run share one later run that sees their changes', async () => {
  const t = manualTask();
  const first = t.task();
  t.change();
  const second = t.task();
  t.change();
  const third = t.task();
  expect(t.runs()).toBe(1);
  t.finish[0]?.();
  expect(await first).toBe(0);
  await tick();
  expect(t.runs()).toBe(2);
  t.finish[1]?.();
  // Both later callers get the run that started after their calls, which saw both changes.
  expect(await second).toBe(2);
  expect(await third).toBe(2);
  // Idle again: the next call runs at once.
  const fourth = t.task();
  expect(t.runs()).toBe(3);
  t.finish[2]?.();
  expect(await fourth).toBe(2);
});

it('a failed run fails its own callers only, and the following run still happens', async () => {
  const t = manualTask();
  const failing = t.task();
  const following = t.task();
  t.finish[0]?.(new Error('store closed'));
  await expect(failing).rejects.toThrow('store closed');
  await tick();
  t.finish[1]?.();
  expect(await following).toBe(0);
});
