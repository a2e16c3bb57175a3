import type { ChangedRecord, Frozen, OutboxEntry, StationStore, SyncKind } from '../../store/index.ts';

/*
 * What the sync status, the scheduler and a push round need to know of the outbox — how many changes
 * wait per account, how many need a person, when the next backed-off one is due, which are due now
 * and in which order — kept in memory as the slots change, instead of reading (and cloning) every
 * waiting slot for each answer. Offline for a peak day a station holds tens of thousands of slots,
 * the status is asked for every 250 ms while parcels are received and a push round starts every 5 s:
 * reading them all took ≈ 340 ms at 40,000 (docs/decisions/create-path.md).
 *
 * The ledger reads the outbox whole once, at its first use, then follows the store's change events
 * for the outbox (each slot put, with its value, or deleted). An event that any slot may differ (a
 * repair after a failed commit, a range delete) makes it read whole again.
 *
 * Only while an upstream is set (the sync engine asks nothing of it otherwise, and `forget` drops
 * what it holds): without one every local change still leaves a slot for a later upstream, two a
 * parcel that are never sent, so a ledger kept then would grow with the history — ≈ 150–200 bytes a
 * slot, the one thing the year bench's heap still gained per parcel (docs/decisions/memory-over-a-year.md).
 * With an upstream set the slots are unsent changes, work at hand, whose clusters are hot anyway.
 */

/** A slot as the ledger keeps it. */
interface Slot {
  account: number;
  kind: SyncKind;
  localId: number;
  queuedAt: string;
  held: boolean;
  /** Not before this instant (ms since the epoch); null: due now. */
  nextAttemptAt: number | null;
}

export interface OutboxLedger {
  /** The changes waiting for these accounts, and how many of them are held for a person. */
  count(accounts: readonly number[]): Promise<{ pending: number; held: number }>;
  /** The earliest instant (ms) a backed-off change that is not held is due; undefined: none is. */
  nextRetryAt(): Promise<number | undefined>;
  /**
   * The keys of an account's slots a push may send at `now` (ms): not held, not backed off past it;
   * in the order they are sent — returns before packages (a package's return must exist upstream
   * first), each oldest change first.
   */
  due(accountId: number, now: number): Promise<string[]>;
  /** Drops what it holds (no upstream is set); the next question reads the outbox whole again. */
  forget(): void;
  /** Slots it holds in memory (for the bench's diagnosis and the tests). */
  size(): number;
  /** Stops following the store. */
  stop(): void;
}

const slotOf = (entry: Frozen<OutboxEntry>): Slot => ({
  account: entry.account_id,
  kind: entry.kind,
  localId: entry.local_id,
  queuedAt: entry.queued_at,
  held: entry.hold !== null,
  nextAttemptAt: entry.next_attempt_at === null ? null : Date.parse(entry.next_attempt_at),
});

/** Returns before packages, then the oldest change first (queued_at is an ISO instant: it sorts as text). */
function sendOrder(a: Slot, b: Slot): number {
  if (a.kind !== b.kind) return a.kind === 'return' ? -1 : 1;
  return a.queuedAt < b.queuedAt ? -1 : a.queuedAt > b.queuedAt ? 1 : a.localId - b.localId;
}

export function createOutboxLedger(store: StationStore): OutboxLedger {
  let slots: Map<string, Slot> | undefined;
  let loading: Promise<Map<string, Slot>> | undefined;
  /** Changed slots that were reported while the whole outbox was being read: applied after it. */
  let arrivedWhileLoading: ChangedRecord[] = [];
  /** Moves on when memory may differ from every report so far: a load that spans it reads again. */
  let generation = 0;

  const apply = (into: Map<string, Slot>, records: readonly ChangedRecord[]) => {
    for (const record of records) {
      if (record.table !== 'outbox') continue;
      const entry = record.value();
      if (entry) into.set(record.key, slotOf(entry));
      else into.delete(record.key);
    }
  };

  const stop = store.onChange(['outbox'], (change) => {
    if (change.kind === 'any') {
      generation += 1;
      slots = undefined;
      return;
    }
    if (slots) apply(slots, change.records);
    else if (loading) arrivedWhileLoading.push(...change.records);
  });

  /**
   * The slots, read whole at first use. First the writes already done in memory are waited for
   * until durable: the ledger follows change events, which come after the fsync, and the sync
   * screen's list (read from memory) must not show a change gone that the status still counts.
   * A report that arrives during the read is applied after it (a put or delete sets its slot whole,
   * so one the read already saw is harmless).
   */
  const current = async (): Promise<Map<string, Slot>> => {
    await store.committedSoFar();
    if (slots) return slots;
    loading ??= (async () => {
      try {
        for (;;) {
          const started = generation;
          arrivedWhileLoading = [];
          const entries = await store.tables.outbox.all();
          if (generation !== started) continue;
          const fresh = new Map(entries.map((entry) => [entry.key, slotOf(entry)]));
          apply(fresh, arrivedWhileLoading);
          slots = fresh;
          return fresh;
        }
      } finally {
        loading = undefined;
        arrivedWhileLoading = [];
      }
    })();
    return loading;
  };

  return {
    async count(accounts) {
      const wanted = new Set(accounts);
      let pending = 0;
      let held = 0;
      for (const slot of (await current()).values()) {
        if (!wanted.has(slot.account)) continue;
        pending += 1;
        if (slot.held) held += 1;
      }
      return { pending, held };
    },
    async nextRetryAt() {
      let earliest: number | undefined;
      for (const slot of (await current()).values()) {
        if (!slot.held && slot.nextAttemptAt !== null && (earliest === undefined || slot.nextAttemptAt < earliest)) earliest = slot.nextAttemptAt;
      }
      return earliest;
    },
    async due(accountId, now) {
      const due: Array<[string, Slot]> = [];
      for (const [key, slot] of await current()) {
        if (slot.account === accountId && !slot.held && (slot.nextAttemptAt === null || slot.nextAttemptAt <= now)) due.push([key, slot]);
      }
      return due.sort(([, a], [, b]) => sendOrder(a, b)).map(([key]) => key);
    },
    forget() {
      // A read under way is read again by its caller's question (the generation moved), not kept.
      generation += 1;
      slots = undefined;
    },
    size: () => slots?.size ?? 0,
    stop,
  };
}
