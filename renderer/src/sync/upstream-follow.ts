import type { SyncStatus } from '#shared/api/station.ts';

/** "3 minutes", "30 seconds", "1 hour": an interval as a supervisor reads it (whole units, rounded). */
export function intervalInWords(ms: number): string {
  const [count, unit] = ms >= 3_600_000 ? [ms / 3_600_000, 'hour'] : ms >= 60_000 ? [ms / 60_000, 'minute'] : [ms / 1000, 'second'];
  const rounded = Math.max(1, Math.round(count));
  return `${rounded} ${unit}${rounded === 1 ? '' : 's'}`;
}

/**
 * How the station learns of its upstream's changes, in a supervisor's words: as they happen (it
 * follows the hub's event stream) or by checking at the pull interval. Null while sync is off or
 * before the station knows which.
 */
export function upstreamFollowText(sync: Pick<SyncStatus, 'state' | 'upstream_events' | 'pull_interval_ms'>): string | null {
  if (sync.state === 'disabled') return null;
  if (sync.upstream_events === 'following') return 'Following the hub’s changes as they happen.';
  if (sync.upstream_events === 'polling' && sync.pull_interval_ms !== null)
    return `Checking the upstream for changes every ${intervalInWords(sync.pull_interval_ms)}.`;
  return null;
}
