import { describe, expect, it } from 'vitest';
import { BurstDetector } from '../../renderer/src/scan/burst-detector.ts';
import { createSerialQueue } from '../../renderer/src/scan/serial-queue.ts';

describe('BurstDetector', () => {
  it('recognises characters typed at scanner speed and ending in Enter', () => {
    const d = new BurstDetector({ maxAverageGapMs: 30, maxGapMs: 120, minLength: 4 });
    [...'1Z999'].forEach((c, i) => d.key(c, 1000 + i * 5));
    expect(d.enter(1030)).toBe('1Z999');
  });

  it('ignores a person typing', () => {
    const d = new BurstDetector({ maxAverageGapMs: 30, maxGapMs: 120, minLength: 4 });
    [...'note'].forEach((c, i) => d.key(c, 1000 + i * 120));
    expect(d.enter(1500)).toBeNull();
  });

  it('keeps only the fast tail after a slow start', () => {
    const d = new BurstDetector({ maxAverageGapMs: 30, maxGapMs: 120, minLength: 4 });
    d.key('x', 0);
    [...'ABCDE'].forEach((c, i) => d.key(c, 500 + i * 4));
    expect(d.enter(525)).toBe('ABCDE');
  });

  it('keeps a scan whole through one slow gap (USB polling, a busy page)', () => {
    const d = new BurstDetector({ maxAverageGapMs: 30, maxGapMs: 120, minLength: 4 });
    const times = [0, 5, 10, 15, 90, 95, 100, 105, 110, 115];
    [...'SKU-41DF50'].forEach((c, i) => d.key(c, 1000 + (times[i] ?? 0)));
    expect(d.enter(1120)).toBe('SKU-41DF50');
  });

  it('by default takes a scanner slowed by a busy page (35 ms a key) but not a fast typist (80 ms)', () => {
    const d = new BurstDetector();
    [...'SKU-41DF50'].forEach((c, i) => d.key(c, 1000 + i * 35));
    expect(d.enter(1000 + 10 * 35)).toBe('SKU-41DF50');
    [...'note text'].forEach((c, i) => d.key(c, 5000 + i * 80));
    expect(d.enter(5000 + 9 * 80)).toBeNull();
  });

  it('does not count a short burst or a late Enter', () => {
    const d = new BurstDetector({ maxAverageGapMs: 30, maxGapMs: 120, minLength: 4 });
    [...'ab'].forEach((c, i) => d.key(c, i * 4));
    expect(d.enter(10)).toBeNull();
    [...'abcdef'].forEach((c, i) => d.key(c, 100 + i * 4));
    expect(d.enter(400)).toBeNull();
  });
});

describe('serial scan queue', () => {
  it('handles every item once, in order, one at a time', async () => {
    const seen: number[] = [];
    let running = 0;
    let maxRunning = 0;
    const q = createSerialQueue<number>(
      async (n) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await new Promise((r) => setTimeout(r, n % 3));
        seen.push(n);
        running--;
      },
      () => undefined,
    );
    for (let i = 0; i < 50; i++) q.push(i);
    expect(q.size).toBe(50);
    await q.idle();
    expect(seen).toEqual([...Array(50).keys()]);
    expect(maxRunning).toBe(1);
    expect(q.size).toBe(0);
  });

  it('reports a failing item and goes on with the next', async () => {
    const errors: number[] = [];
    const done: number[] = [];
    const q = createSerialQueue<number>(
      (n) => {
        if (n === 1) throw new Error('boom');
        done.push(n);
      },
      (_e, n) => errors.push(n),
    );
    [0, 1, 2].forEach((n) => q.push(n));
    await q.idle();
    expect(done).toEqual([0, 2]);
    expect(errors).toEqual([1]);
  });
});
