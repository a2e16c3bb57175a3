import { errorBody } from '#shared/api/errors.ts';
import { ContractError } from '../../errors.ts';
import { CommitFailedError, StoreClosedError } from '../../store/index.ts';

/** Out of space: the disk (ENOSPC, SQLite's "database or disk is full") or the user's quota. */
export function isDiskFull(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 8; cause = cause.cause, depth++) {
    const code = (cause as { code?: unknown; errcode?: unknown }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') return true;
    if ((cause as { errcode?: unknown }).errcode === 13 || /database or disk is full|SQLITE_FULL|ENOSPC|no space left on device/i.test(cause.message))
      return true;
  }
  return false;
}

/**
 * The store's failures as the contract's 503 UNAVAILABLE: a full disk (which needs the operator,
 * said plainly, with `reason: "disk_full"`), a commit that failed for another reason (nothing was
 * saved; retrying may work), a store closed by shutdown. Null for anything else.
 */
export function storageFailure(error: unknown): ContractError | null {
  if (isDiskFull(error)) {
    return new ContractError(
      503,
      errorBody('UNAVAILABLE', "The station's disk is full: nothing was saved. Free space on the disk that holds the station's data, then try again.", {
        reason: 'disk_full',
      }),
    );
  }
  if (error instanceof CommitFailedError)
    return new ContractError(503, errorBody('UNAVAILABLE', 'The change could not be saved to disk; nothing was changed. Try again.'));
  if (error instanceof StoreClosedError) return new ContractError(503, errorBody('UNAVAILABLE', 'The station is shutting down.'));
  return null;
}
