import type { RecordSync, SyncChange, SyncChangeRef } from '#shared/api/sync.ts';
import { fail } from '../../errors.ts';
import { type OutboxEntry, type BoundTables, type ReadTables, outboxKey, type SyncKind } from '../../store/index.ts';
import { linkOf, putLink } from '../links/upstream-links.ts';
import { localValues } from '../links/package-fields.ts';
import type { UpstreamSettings } from '../upstream/upstream-client.ts';

/*
 * What a person sees and does about changes that did not go up (the sync screen): list them with the
 * upstream's own message, retry one, or keep the station's version. Nothing is dropped silently.
 */

function stateOf(entry: OutboxEntry): SyncChange['state'] {
  if (entry.hold) return entry.hold;
  return entry.attempts > 0 ? 'retrying' : 'waiting';
}

async function labelOf(t: Pick<ReadTables, 'returns' | 'return_packages'>, kind: SyncKind, id: number): Promise<string> {
  if (kind === 'return_package') return (await t.return_packages.get(id))?.tracking_number ?? `package ${id}`;
  return (await t.returns.get(id))?.email ?? `return ${id}`;
}

export async function changeView(t: Pick<ReadTables, 'returns' | 'return_packages'>, entry: OutboxEntry): Promise<SyncChange> {
  return {
    kind: entry.kind,
    id: entry.local_id,
    account_id: entry.account_id,
    label: await labelOf(t, entry.kind, entry.local_id),
    state: stateOf(entry),
    queued_at: entry.queued_at,
    attempts: entry.attempts,
    next_attempt_at: entry.next_attempt_at,
    error: entry.error,
  };
}

/** Held changes first (they need a person), then by age. */
export async function listChanges(
  t: ReadTables,
  states: readonly SyncChange['state'][] | undefined,
  page: number,
  perPage: number,
): Promise<{ data: SyncChange[]; total: number }> {
  const rank = (e: OutboxEntry) => (e.hold ? 0 : e.attempts > 0 ? 1 : 2);
  const entries = (await t.outbox.all())
    .filter((e) => states === undefined || states.includes(stateOf(e)))
    .sort((a, b) => rank(a) - rank(b) || a.queued_at.localeCompare(b.queued_at) || a.key.localeCompare(b.key));
  const slice = entries.slice((page - 1) * perPage, page * perPage);
  return { data: await Promise.all(slice.map((e) => changeView(t, e))), total: entries.length };
}

async function entryOf(t: BoundTables, ref: SyncChangeRef): Promise<OutboxEntry> {
  const entry = await t.outbox.get(outboxKey(ref.kind, ref.id));
  if (!entry) throw fail('NOT_FOUND', `No waiting change for ${ref.kind} ${ref.id}.`);
  return entry;
}

/** Sends the record's changes again at the next round (now): the hold and the backoff are lifted. */
export async function retryChange(t: BoundTables, ref: SyncChangeRef): Promise<SyncChange> {
  const entry = await entryOf(t, ref);
  const next: OutboxEntry = { ...entry, hold: null, attempts: 0, next_attempt_at: null, error: null };
  await t.outbox.put(next);
  return changeView(t, next);
}

/**
 * Keeps the station's version: the slot goes, and a linked package's snapshot becomes its local
 * values, so those are not sent again (a later local edit is, as usual).
 */
export async function keepLocal(t: BoundTables, ref: SyncChangeRef, now: string): Promise<void> {
  const entry = await entryOf(t, ref);
  await t.outbox.delete(entry.key);
  const link = await linkOf(t, ref.kind, ref.id);
  if (link && ref.kind === 'return_package') {
    const pkg = await t.return_packages.get(ref.id);
    if (pkg) await putLink(t, { ...link, synced: { ...link.synced, ...localValues(pkg) } }, now);
  }
}

export async function recordSync(t: ReadTables, settings: UpstreamSettings | null, kind: SyncKind, id: number, accountId: number): Promise<RecordSync> {
  const [link, entry] = await Promise.all([linkOf(t, kind, id), t.outbox.get(outboxKey(kind, id))]);
  const configured = settings?.accounts.includes(accountId) ?? false;
  let state: RecordSync['state'];
  if (entry?.hold) state = entry.hold;
  else if (!configured) state = 'local_only';
  else state = entry ? 'pending' : 'synced';
  return { upstream_id: link?.upstream_id ?? null, state, error: entry?.error ?? null, linked_at: link?.linked_at ?? null };
}
