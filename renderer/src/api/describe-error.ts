import { ApiError, StationUnreachableError, SupervisorSessionEndedError } from '#shared/api/client.ts';
import { isPairedHandheld } from '../pairing/paired-device.ts';

/** Why a supervisor is asked to sign in again; the change was not made. */
export const SESSION_ENDED =
  'The supervisor’s session on this screen ended (their PIN or role changed, or its 15 minutes passed): sign in again, then do it again. Nothing was changed.';

/** A sentence a dock worker can act on, for any error a station call may throw. */
export function describeError(error: unknown): string {
  if (error instanceof StationUnreachableError) return 'The station cannot be reached. Your work stays on screen; try again when it is back.';
  if (error instanceof SupervisorSessionEndedError) return SESSION_ENDED;
  if (error instanceof ApiError) {
    const d = error.details as Record<string, unknown>;
    switch (error.errorCode) {
      case 'INVALID_STATUS_TRANSITION': {
        const allowed = Array.isArray(d.allowed) ? (d.allowed as unknown[]).map(String) : [];
        const from = typeof d.from === 'string' ? d.from.replace('_', ' ') : 'its status';
        const to = typeof d.to === 'string' ? d.to.replace('_', ' ') : 'that status';
        return `Refused by the station: a ${from} package cannot become ${to}${allowed.length ? ` (allowed: ${allowed.join(', ').replaceAll('_', ' ')})` : ' (no further moves allowed)'}.`;
      }
      case 'DUPLICATE_TRACKING_NUMBER':
        return 'Refused by the station: that tracking number is already used by another package of this account.';
      case 'UNAVAILABLE':
        if (d.reason === 'disk_full')
          return 'The station’s disk is full — nothing was saved. Tell the supervisor: space must be freed on the station’s disk before work can go on.';
        if (d.reason === 'media_budget_reached')
          return 'The station’s photo storage is full — the photo was not saved. Tell the supervisor: old photos must be removed or the media budget raised.';
        return `The station is busy or restarting (${error.message}) Try again in a moment.`;
      case 'SUPERVISOR_REQUIRED':
        return 'Only a supervisor may change this: sign in as a supervisor (Supervisor, Alt+U) and try again. Nothing was changed.';
      case 'INVALID_TOKEN':
        return isPairedHandheld()
          ? 'The station no longer accepts this handheld (its pairing was revoked). Pair it again: a supervisor shows a code in Settings → Site → Handhelds.'
          : 'The station did not accept this screen’s token. Open the link the station printed again.';
      case 'VALIDATION_FAILED': {
        const fields = Array.isArray(d.fields) ? (d.fields as { path?: unknown; message?: unknown }[]) : [];
        const first = fields[0];
        return first ? `Refused by the station: ${String(first.path)} — ${String(first.message)}` : `Refused by the station: ${error.message}`;
      }
      default:
        return `Refused by the station (${error.status}): ${error.message}`;
    }
  }
  return error instanceof Error ? error.message : String(error);
}
