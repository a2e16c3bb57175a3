import type { CDPSession, Page } from '@playwright/test';

/*
 * Keys with the times they were pressed, as the operating system stamps them. A wedge scanner's keys
 * carry the scanner's own pace (10–30 ms a key) even when the page is busy, because the browser stamps
 * each key when the device sent it; Playwright's page.keyboard waits for the page between keys, so on
 * a loaded machine its gaps are the machine's, not the scanner's. CDP's Input.dispatchKeyEvent takes
 * the time stamp a real device would give.
 */

export interface TimedKey {
  /** A printable character, or `Enter` / `F12` / another key name. */
  key: string;
  /** When it is pressed, in ms from the start of the sequence. */
  atMs: number;
}

const NAMED: Record<string, { code: string; keyCode: number; text?: string }> = {
  Enter: { code: 'Enter', keyCode: 13, text: '\r' },
  F2: { code: 'F2', keyCode: 113 },
  F12: { code: 'F12', keyCode: 123 },
  Escape: { code: 'Escape', keyCode: 27 },
};

async function press(cdp: CDPSession, key: string, timestamp: number): Promise<void> {
  const named = NAMED[key];
  const upper = key.toUpperCase();
  const keyCode = named?.keyCode ?? (/^[A-Z0-9]$/.test(upper) ? upper.charCodeAt(0) : key === '-' ? 189 : 0);
  const text = named ? named.text : key;
  const base = { key, code: named?.code ?? '', windowsVirtualKeyCode: keyCode, timestamp };
  const down = cdp.send('Input.dispatchKeyEvent', {
    ...base,
    type: text === undefined ? 'rawKeyDown' : 'keyDown',
    ...(text === undefined ? {} : { text, unmodifiedText: text }),
  });
  await Promise.all([down, cdp.send('Input.dispatchKeyEvent', { ...base, type: 'keyUp' })]);
}

/** Gaps shorter than this are a scanner's, not a person's. */
const SCANNER_PACE_MS = 50;

/** Presses each key at its time (stamped exactly so, sent as close to it as the machine allows). */
export async function typeTimed(page: Page, keys: readonly TimedKey[]): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const start = Date.now();
  // Sent on time without waiting for the page in between, as a device does: the browser queues them.
  // Keys at a scanner's pace (gaps under 50 ms) go out together, each with its own stamp: on a loaded
  // machine this process's timers run late, and a burst that reached the page spread out in real time
  // would let the page's real-time hold of a lone digit run out in the middle of a scan (a CI run lost
  // the leading "2" of a SKU so). Gaps a person leaves are waited for in real time.
  const sent: Promise<void>[] = [];
  let previous = Number.NEGATIVE_INFINITY;
  for (const k of keys) {
    const wait = start + k.atMs - Date.now();
    if (wait > 0 && k.atMs - previous >= SCANNER_PACE_MS) await new Promise((r) => setTimeout(r, wait));
    previous = k.atMs;
    sent.push(press(cdp, k.key, (start + k.atMs) / 1000));
  }
  await Promise.all(sent);
  await cdp.detach();
}

/** A wedge scanner: `code` at `gapMs` a key from `fromMs`, then Enter. */
export function scannerKeys(code: string, fromMs = 0, gapMs = 15): TimedKey[] {
  const keys = [...code].map((key, i) => ({ key, atMs: fromMs + i * gapMs }));
  return [...keys, { key: 'Enter', atMs: fromMs + code.length * gapMs }];
}

/** A person typing `code`: the i-th key `gapMs(i)` after the one before it, then Enter `gapMs(length)` after the last. */
export function typedKeys(code: string, gapMs: (i: number) => number): TimedKey[] {
  let at = 0;
  const keys = [...code].map((key, i) => ({ key, atMs: (at += i === 0 ? 0 : gapMs(i)) }));
  return [...keys, { key: 'Enter', atMs: at + gapMs(code.length) }];
}
