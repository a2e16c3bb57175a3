import { type BoundTables, type ReadTables, outboxKey, type SyncConflict, type SyncKind, type UpstreamLink } from '../../store/index.ts';

/** The link of a local record, if it has an upstream twin. */
export function linkOf(tables: Pick<ReadTables, 'upstream_links'>, kind: SyncKind, localId: number): Promise<UpstreamLink | undefined> {
  return tables.upstream_links.get(outboxKey(kind, localId));
}

/** The link of an upstream record, if the station has its twin. */
export function linkOfUpstream(
  tables: Pick<ReadTables, 'upstream_links'>,
  accountId: number,
  kind: SyncKind,
  upstreamId: number,
): Promise<UpstreamLink | undefined> {
  return tables.upstream_links.ofUpstream(accountId, kind, upstreamId);
}

export async function putLink(t: BoundTables, link: Omit<UpstreamLink, 'key' | 'linked_at'> & { linked_at?: string }, now: string): Promise<UpstreamLink> {
  const full: UpstreamLink = { ...link, key: outboxKey(link.kind, link.local_id), linked_at: link.linked_at ?? now };
  await t.upstream_links.put(full);
  return full;
}

/** Writes down a value sync replaced or kept against the upstream's: nothing is overwritten silently. */
export async function logConflict(t: BoundTables, conflict: Omit<SyncConflict, 'id'>): Promise<void> {
  await t.sync_conflicts.add(conflict as SyncConflict);
}
