import type { ErrorCode, ErrorDetails } from './errors.ts';

/*
 * What a call of the station API throws: the station's answer when it is not a 2xx (ApiError), or
 * that no answer came (StationUnreachableError). The client throws them; the retry policy reads them.
 */

/** A non-2xx answer of the API. */
export class ApiError extends Error {
  readonly status: number;
  readonly errorCode: ErrorCode | 'UNEXPECTED_RESPONSE';
  readonly details: ErrorDetails;

  constructor(status: number, errorCode: ErrorCode | 'UNEXPECTED_RESPONSE', details: ErrorDetails) {
    super(details.message);
    this.name = 'ApiError';
    this.status = status;
    this.errorCode = errorCode;
    this.details = details;
  }
}

/**
 * A call made with the supervisor session's token (`useSupervisorToken`) was refused as unknown: the
 * session ended at the station (a new PIN, a deactivation, a lost role — also when a site's hub's
 * workers were taken — or its 15 minutes). The client stops sending that token.
 */
export class SupervisorSessionEndedError extends ApiError {
  constructor(refused: ApiError) {
    super(refused.status, refused.errorCode, refused.details);
    this.name = 'SupervisorSessionEndedError';
  }
}

/** The station could not be reached (network error, refused connection, aborted by timeout). */
export class StationUnreachableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StationUnreachableError';
  }
}
