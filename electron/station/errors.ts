import type { FastifyReply } from 'fastify';

/** The one error shape of the contract (section 3): `{error, error_code, details: {message, ...}}`. */
export interface ApiErrorBody {
  error: string;
  error_code: string;
  details: { message: string } & Record<string, unknown>;
}

export function sendError(
  reply: FastifyReply,
  status: number,
  error: string,
  errorCode: string,
  message: string,
  extra: Record<string, unknown> = {},
): FastifyReply {
  const body: ApiErrorBody = { error, error_code: errorCode, details: { message, ...extra } };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}
