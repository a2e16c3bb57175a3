import type { OutboxEntry, StationStore } from '../../store/index.ts';
import { upstreamFailing } from '../upstream/upstream-gate.ts';

/** Slots read from the store at a time. */
const READ_AHEAD = 64;

/**
 * The slots a push round sends, in the ledger's order (returns before packages, each oldest first),
 * read a few at a time as the round reaches them: a round that ends early reads a few, not the whole
 * backlog. Within returns and within packages, a slot whose last send made the upstream fail (a 5xx)
 * goes after the others, so a record that makes the upstream fail is not the first request of every
 * round (after a backoff that request is the gate's probe: upstream-gate.ts) and the others still go.
 * A slot whose answer was lost keeps its place: its next send starts with a lookup that adopts what
 * the upstream made (and its own backoff keeps one that always times out from going every round).
 * A slot settled or changed since the ledger was asked (`isDue` false) is skipped: a later round has it.
 */
export async function* slotsToSend(
  store: StationStore,
  keys: readonly string[],
  isDue: (entry: OutboxEntry | undefined) => entry is OutboxEntry,
): AsyncGenerator<OutboxEntry> {
  const returns = keys.filter((key) => key.startsWith('return:')); // outboxKey: `kind:local_id`
  for (const group of [returns, keys.slice(returns.length)]) {
    const failedBefore: string[] = [];
    for (let at = 0; at < group.length; at += READ_AHEAD) {
      for (const entry of (await store.tables.outbox.bulkGet(group.slice(at, at + READ_AHEAD))).filter(isDue)) {
        if (entry.attempts > 0 && entry.error?.status != null && upstreamFailing(entry.error.status)) failedBefore.push(entry.key);
        else yield entry;
      }
    }
    for (let at = 0; at < failedBefore.length; at += READ_AHEAD)
      yield* (await store.tables.outbox.bulkGet(failedBefore.slice(at, at + READ_AHEAD))).filter(isDue);
  }
}
