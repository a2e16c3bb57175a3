/*
 * What the domain asks of the print queue (printing/queue.ts implements it), in a file of its own so
 * the domain's context does not import the print jobs, which import the context (as sync-port.ts).
 */

/** A look at the jobs now (one was made, the printer changed). */
export interface PrintPort {
  nudge(): void;
}
