/*
 * CPU time spent per operation in this process (the store section; the api section reports the
 * server's, load.ts): on the busy shared machine a rate says as much about the other processes as
 * about the store, while the CPU an operation costs changes far less. 1000 / (ms per operation) is
 * the rate one core could reach: it shows when the CPU is the limit.
 */

/** CPU time (user + system) this process has used so far, in ms. */
export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** "0.91 ms CPU per create (≈ 1,100/s on one core)". */
export function cpuPerOperation(cpuMs: number, operations: number, what: string): string {
  const each = cpuMs / Math.max(1, operations);
  return `${each.toFixed(2)} ms CPU per ${what} (≈ ${Math.round(1000 / each).toLocaleString('en-US')}/s on one core)`;
}
