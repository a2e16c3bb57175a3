/** Time as the station records it: ISO 8601 UTC with milliseconds (docs/api-reference.md, Values). */
export interface Clock {
  now(): string;
}

/** The last millisecond's text is kept: every request reads the clock (token expiry, writes). */
let lastMs = Number.NaN;
let lastText = '';
export const systemClock: Clock = {
  now: () => {
    const ms = Date.now();
    if (ms !== lastMs) {
      lastMs = ms;
      lastText = new Date(ms).toISOString();
    }
    return lastText;
  },
};

/**
 * `updated_at` must move forward on every change, even when two changes land in the same
 * millisecond or the wall clock steps back: one millisecond past the previous value at least.
 */
export function advance(previous: string, now: string): string {
  if (now > previous) return now;
  return new Date(Date.parse(previous) + 1).toISOString();
}

/** The system clock moved by a fixed offset: lets tests start a real station "8 days later". */
export function offsetClock(offsetMs: number): Clock {
  if (offsetMs === 0) return systemClock;
  return { now: () => new Date(Date.now() + offsetMs).toISOString() };
}

/** Time stands still at `at`: testers' fixed clock (the desktop app's RETURNS_STATION_CLOCK_FIXED). */
export function fixedClock(at: string): Clock {
  return { now: () => at };
}

/** `at` plus a number of days, as the station records time. */
export function daysAfter(at: string, days: number): string {
  return new Date(Date.parse(at) + days * 86_400_000).toISOString();
}
