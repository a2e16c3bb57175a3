import { describe, expect, it } from 'vitest';
import { BurstDetector } from '../../renderer/src/scan/burst-detector.ts';
import { createSerialQueue } from '../../renderer/src/scan/serial-queue.ts';

describe('BurstDetector', () => {
  it('recognises characters typed at scanner speed and ending in Enter', () => {
    const d = new BurstDetector({ maxAverageGapMs: 30, maxGapMs: 120, minLength: 4 });
    [...'1Z999'].forEach((c, i) => d.key(c, 1000 + i * 5));
    expect(d.enter(1030)).toEqual({ code: '1Z999', before: '' });
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
    expect(d.enter(525)?.code).toBe('ABCDE');
  });

  it('keeps a scan whole through one slow gap (USB polling, a busy page)', () => {
    const d = new BurstDetector({ maxAverageGapMs: 30, maxGapMs: 120, minLength: 4 });
    const times = [0, 5, 10, 15, 90, 95, 100, 105, 110, 115];
    [...'SKU-41DF50'].forEach((c, i) => d.key(c, 1000 + (times[i] ?? 0)));
    expect(d.enter(1120)?.code).toBe('SKU-41DF50');
  });

  it('by default takes a scanner slowed by a busy page (35 ms a key) but not a fast typist (80 ms)', () => {
    const d = new BurstDetector();
    [...'SKU-41DF50'].forEach((c, i) => d.key(c, 1000 + i * 35));
    expect(d.enter(1000 + 10 * 35)?.code).toBe('SKU-41DF50');
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

/** Types `chars` starting at `from`, `gapMs` apart (a wedge scanner: 10–30 ms; a person: 60 ms or more). */
function typeAt(d: BurstDetector, chars: string, from: number, gapMs: number): number {
  [...chars].forEach((c, i) => d.key(c, from + i * gapMs));
  return from + (chars.length - 1) * gapMs;
}

describe('BurstDetector: a key pressed by hand just before a scan', () => {
  for (const scannerGap of [10, 20, 30]) {
    for (const leadGap of [80, 120]) {
      it(`splits a digit pressed ${leadGap} ms before a scanner at ${scannerGap} ms a key`, () => {
        const d = new BurstDetector();
        d.key('2', 0);
        const last = typeAt(d, 'AC-WBN-01', leadGap, scannerGap);
        expect(d.enter(last + scannerGap)).toEqual({ code: 'AC-WBN-01', before: '2' });
      });
    }
  }

  it('splits a key pressed 60 ms before a 10–20 ms scanner (humans are rarely faster)', () => {
    for (const scannerGap of [10, 20]) {
      const d = new BurstDetector();
      d.key('3', 0);
      const last = typeAt(d, 'AC-LBT-90', 60, scannerGap);
      expect(d.enter(last + scannerGap)).toEqual({ code: 'AC-LBT-90', before: '3' });
    }
  });

  it('never splits the first character off a scan that starts with a digit, even with uneven gaps', () => {
    const d = new BurstDetector();
    // A 30 ms scanner whose first gap came in at 55 ms (USB polling): still one code.
    const times = [0, 55, 80, 112, 140, 171, 200, 228, 260, 290];
    [...'2AC-WBN-01'].forEach((c, i) => d.key(c, 1000 + (times[i] ?? 0)));
    expect(d.enter(1320)).toEqual({ code: '2AC-WBN-01', before: '' });
    typeAt(d, '3AC-LBT-90', 5000, 12);
    expect(d.enter(5000 + 9 * 12 + 12)).toEqual({ code: '3AC-LBT-90', before: '' });
  });

  it('reports keys typed by hand before a scan, also before a pause, and keeps at least a whole code', () => {
    const d = new BurstDetector();
    typeAt(d, '12', 0, 90);
    const last = typeAt(d, 'SKU-1', 180, 15);
    expect(d.enter(last + 15)).toEqual({ code: 'SKU-1', before: '12' });
    d.key('+', 0);
    typeAt(d, 'SKU-2', 400, 15);
    expect(d.enter(500)).toEqual({ code: 'SKU-2', before: '+' });
    // A four-character scan behind a key: the code is never cut below the shortest scan.
    d.key('5', 0);
    typeAt(d, 'ABCD', 100, 10);
    expect(d.enter(140)).toEqual({ code: 'ABCD', before: '5' });
  });

  it('never splits a letter off: a scanner whose first gap is slow keeps its whole code', () => {
    const d = new BurstDetector();
    d.key('B', 0);
    const last = typeAt(d, 'ADGE-001', 90, 15);
    expect(d.enter(last + 15)).toEqual({ code: 'BADGE-001', before: '' });
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
