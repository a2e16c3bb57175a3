/** Time as the station records it: ISO 8601 UTC with milliseconds (contract section 4). */
export interface Clock {
  now(): string;
}

export const systemClock: Clock = { now: () => new Date().toISOString() };

/**
 * `updated_at` must move forward on every change, even when two changes land in the same
 * millisecond or the wall clock steps back: one millisecond past the previous value at least.
 */
export function advance(previous: string, now: string): string {
  if (now > previous) return now;
  return new Date(Date.parse(previous) + 1).toISOString();
}
