import { type ErrorBody, type ErrorCode, type ErrorExtras, errorBody, errorStatus } from '#shared/api/errors.ts';

/**
 * A refusal in the contract's vocabulary (docs/api-reference.md, Errors), thrown by the domain and the HTTP
 * layer alike and answered to the client as the one error body.
 */
export class ContractError extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers: Record<string, string>;
  constructor(status: number, body: ErrorBody, headers: Record<string, string> = {}) {
    super(body.details.message);
    this.name = 'ContractError';
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** Builds the error of a contract code, e.g. `throw fail('NOT_FOUND', 'No return package 7.')`. */
export function fail(code: ErrorCode, message?: string, extras?: ErrorExtras): ContractError {
  return new ContractError(errorStatus(code), errorBody(code, message, extras));
}
