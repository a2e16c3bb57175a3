/** A mistake in how the command was called: printed without a stack, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new UsageError(`--port must be an integer from 0 to 65535, got "${value}".`);
  return port;
}

const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function parseLogLevel(value: string | undefined): LogLevel {
  if (value === undefined || value === '') return 'info';
  const level = LOG_LEVELS.find((candidate) => candidate === value);
  if (!level) throw new UsageError(`RETURNS_STATION_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${value}".`);
  return level;
}
