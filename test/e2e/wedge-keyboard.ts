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
  F12: { code: 'F12', keyCode: 123 },
};

async function press(cdp: CDPSession, key: string, timestamp: number): Promise<void> {
  const named = NAMED[key];
  const upper = key.toUpperCase();
  const keyCode = named?.keyCode ?? (/^[A-Z0-9]$/.test(upper) ? upper.charCodeAt(0) : key === '-' ? 189 : 0);
  const text = named ? named.text : key;
  const base = { key, code: named?.code ?? '', windowsVirtualKeyCode: keyCode, timestamp };
  const down = cdp.send('Input.dispatchKeyEvent', { ...base, type: text === undefined ? 'rawKeyDown' : 'keyDown', ...(text === undefined ? {} : { text, unmodifiedText: text }) });
  await Promise.all([down, cdp.send('Input.dispatchKeyEvent', { ...base, type: 'keyUp' })]);
}

/** Presses each key at its time (stamped exactly so, sent as close to it as the machine allows). */
export async function typeTimed(page: Page, keys: readonly TimedKey[]): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const start = Date.now();
  // Sent on time without waiting for the page in between, as a device does: the browser queues them.
  const sent: Promise<void>[] = [];
  for (const k of keys) {
    const wait = start + k.atMs - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
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
