import { type BoundTables, type OutboxEntry, outboxKey, type SyncKind } from '../store/index.ts';

/*
 * The outbox: one slot per record with local changes the upstream has not seen (docs/decisions/sync.md).
 * A slot is a mark, not a payload; the body is computed when it is sent. The domain marks it in the
 * change's own write (change-log.ts); sync reads and clears the slots, and marks one again itself
 * when a package's media still has to go up (media-push.ts).
 */

/**
 * Marks a record changed, inside the caller's write (the mark commits with the change). A record
 * created in this write (`created`) has no slot yet: its id was never used before (ids are not
 * reused), so the slot is written without first reading it.
 */
export async function markChanged(t: BoundTables, kind: SyncKind, localId: number, accountId: number, now: string, created = false): Promise<void> {
  const key = outboxKey(kind, localId);
  // Once the engine runs this write, a slot in memory is read without a request (`t.peek`).
  const existing = created ? undefined : (t.peek('outbox', key) ?? (await t.outbox.get(key)));
  if (existing) {
    // A new local change to a held record is a new attempt: a person's fix (or the next edit) may cure it.
    const next: OutboxEntry = { ...existing, changed_at: now };
    if (existing.hold === 'parked') Object.assign(next, { hold: null, attempts: 0, next_attempt_at: null });
    await t.outbox.put(next);
    return;
  }
  await t.outbox.put({
    key,
    kind,
    local_id: localId,
    account_id: accountId,
    queued_at: now,
    changed_at: now,
    attempts: 0,
    next_attempt_at: null,
    create_attempted_at: null,
    hold: null,
    error: null,
  });
}
