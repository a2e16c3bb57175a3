/** A mistake in how the command was called: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The command was understood but refused (a taken badge, an unknown id): its message, exit code 1. */
export class CommandRefused extends Error {
  override name = 'CommandRefused';
}
