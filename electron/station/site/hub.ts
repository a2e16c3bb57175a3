import { z } from 'zod';
import { JOIN_CODE_MINUTES, JOIN_CODE_WRONG_PROOFS, type SiteJoinAnswer, type SiteJoinRequest, type SiteMember } from '#shared/api/site.ts';
import { addToken } from '../domain/tokens.ts';
import { fail } from '../errors.ts';
import type { BoundTables, ReadTables } from '../store/index.ts';
import { upstreamSettingsIn } from '../sync/settings.ts';
import { mergeJoiningWorkers } from './site-config.ts';
import { joinKeyOf, joinProof, newInviteName, newJoinCode, normalJoinCode, sameProof } from './join-code.ts';

/*
 * The hub's side of a site (docs/decisions/site-join.md): join codes (kept as their hash) and the
 * members that joined with one, each with a token of its own. Both live in `station_meta` rows.
 */

const INVITES_KEY = 'site.invites';
const MEMBERS_KEY = 'site.members';
/** Open codes at once, at most: a code is made for a station about to join. */
const MAX_OPEN_INVITES = 20;
/** Used or expired codes are kept this long (a late try is told "used" or "expired", not "unknown"). */
const KEEP_CLOSED_MS = 24 * 60 * 60 * 1000;

const StoredInviteSchema = z.object({
  invite: z.string(),
  key: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  used_at: z.string().nullable(),
  wrong_proofs: z.int().min(0),
});
type StoredInvite = z.infer<typeof StoredInviteSchema>;

const StoredMemberSchema = z.object({
  id: z.int().min(1),
  name: z.string(),
  joined_at: z.string(),
  token_id: z.int(),
  token_hash: z.string(),
  last_contact_at: z.string().nullable(),
  pending_changes: z.int().min(0).nullable(),
  removed_at: z.string().nullable(),
});
export type StoredMember = z.infer<typeof StoredMemberSchema>;

async function rowsOf<T>(t: Pick<ReadTables, 'station_meta'>, key: string, schema: z.ZodType<T>): Promise<T[]> {
  const parsed = z.array(schema).safeParse((await t.station_meta.get(key))?.value ?? []);
  return parsed.success ? parsed.data : [];
}

export function membersIn(t: Pick<ReadTables, 'station_meta'>): Promise<StoredMember[]> {
  return rowsOf(t, MEMBERS_KEY, StoredMemberSchema);
}

export async function saveMembers(t: BoundTables, members: StoredMember[]): Promise<void> {
  await t.station_meta.put({ key: MEMBERS_KEY, value: members });
}

/** A member as the API shows it (never its token). */
export function memberView(member: StoredMember): SiteMember {
  const { id, name, joined_at, last_contact_at, pending_changes, removed_at } = member;
  return { id, name, joined_at, last_contact_at, pending_changes, removed_at };
}

/** Makes a join code (shown once; its hash is kept) that works for JOIN_CODE_MINUTES, once. */
export async function createInvite(t: BoundTables, now: string): Promise<{ code: string; expires_at: string }> {
  const at = Date.parse(now);
  const kept = (await rowsOf(t, INVITES_KEY, StoredInviteSchema)).filter((i) => Date.parse(i.used_at ?? i.expires_at) > at - KEEP_CLOSED_MS);
  const open = kept.filter((i) => i.used_at === null && Date.parse(i.expires_at) > at && i.wrong_proofs < JOIN_CODE_WRONG_PROOFS);
  if (open.length >= MAX_OPEN_INVITES)
    throw fail('RATE_LIMITED', `At most ${MAX_OPEN_INVITES} join codes may be open at once; use one or wait ${JOIN_CODE_MINUTES} minutes.`);
  let invite = newInviteName();
  while (kept.some((i) => i.invite === invite)) invite = newInviteName();
  const code = newJoinCode(invite);
  const expiresAt = new Date(at + JOIN_CODE_MINUTES * 60_000).toISOString();
  const normal = normalJoinCode(code)?.code ?? '';
  kept.push({ invite, key: joinKeyOf(normal), created_at: now, expires_at: expiresAt, used_at: null, wrong_proofs: 0 });
  await t.station_meta.put({ key: INVITES_KEY, value: kept });
  return { code, expires_at: expiresAt };
}

/** The site's accounts a member syncs: the hub's upstream accounts, else every account it has. */
async function siteAccounts(t: BoundTables): Promise<number[]> {
  const settings = await upstreamSettingsIn(t);
  if (settings) return settings.accounts;
  return (await t.accounts.all()).map((a) => a.id).slice(0, 100);
}

export type JoinOutcome =
  { kind: 'joined'; answer: SiteJoinAnswer; member: StoredMember } | { kind: 'refused'; why: string } | { kind: 'wrong'; burned: boolean };

/**
 * Checks a join against the code and the hub's own CA fingerprint. A wrong proof is counted (and
 * written: the caller answers 403 after the write); JOIN_CODE_WRONG_PROOFS of them burn the code. A
 * right one uses the code, makes the member and its token (a terminal's role: the dock's work and
 * sync, never the hub's settings, workers or tokens) and answers with the hub's own proof.
 */
export async function acceptJoin(
  t: BoundTables,
  now: string,
  request: Omit<SiteJoinRequest, 'workers'> & Partial<Pick<SiteJoinRequest, 'workers'>>,
  hubCaSha256: string,
): Promise<JoinOutcome> {
  const at = Date.parse(now);
  const invites = await rowsOf(t, INVITES_KEY, StoredInviteSchema);
  const invite = invites.find((i) => i.invite === request.invite);
  if (!invite) return { kind: 'refused', why: 'This join code is unknown to the hub.' };
  if (invite.used_at !== null) return { kind: 'refused', why: `This join code was used at ${invite.used_at}: a code works once.` };
  if (invite.wrong_proofs >= JOIN_CODE_WRONG_PROOFS) return { kind: 'refused', why: 'This join code is burned: it was tried with wrong proofs too often.' };
  if (Date.parse(invite.expires_at) <= at) return { kind: 'refused', why: `This join code expired at ${invite.expires_at}.` };
  const update = async (changed: StoredInvite) =>
    t.station_meta.put({ key: INVITES_KEY, value: invites.map((i) => (i.invite === changed.invite ? changed : i)) });
  if (!sameProof(request.proof, joinProof(invite.key, 'join', hubCaSha256, request.nonce))) {
    const wrong = invite.wrong_proofs + 1;
    await update({ ...invite, wrong_proofs: wrong });
    return { kind: 'wrong', burned: wrong >= JOIN_CODE_WRONG_PROOFS };
  }
  const accounts = await siteAccounts(t);
  if (accounts.length === 0) throw fail('NOT_A_HUB', 'The hub has no accounts yet: set its upstream (returns-station upstream set) first.');
  await update({ ...invite, used_at: now });
  let members = await membersIn(t);
  const previous = members.find((m) => m.id === request.previous_member_id);
  if (previous) {
    // Joining again replaces the membership: the old token stops working, the old entry goes.
    await revokeMemberToken(t, now, previous);
    members = members.filter((m) => m.id !== previous.id);
  }
  const id = Math.max(0, ...members.map((m) => m.id), ...(previous ? [previous.id] : [])) + 1;
  const { token, secret } = await addToken(t, now, { scope: 'station', accountId: null, name: `site member ${id} (${request.name})`, role: 'terminal' });
  const member: StoredMember = {
    id,
    name: request.name,
    joined_at: now,
    token_id: token.id,
    token_hash: token.token_hash,
    last_contact_at: null,
    pending_changes: null,
    removed_at: null,
  };
  await saveMembers(t, [...members, member]);
  // The station's own workers join the site's, merged by badge (site-config.ts).
  await mergeJoiningWorkers(t, now, request.workers ?? []);
  return { kind: 'joined', member, answer: { member_id: id, hub_proof: joinProof(invite.key, 'hub', hubCaSha256, request.nonce), token: secret, accounts } };
}

async function revokeMemberToken(t: BoundTables, now: string, member: StoredMember): Promise<void> {
  const token = await t.tokens.get(member.token_id);
  if (token && token.revoked_at === null) await t.tokens.put({ ...token, revoked_at: now });
}

/** Removes a member: its token is revoked in the same write (refused from the next request on); it stays listed as removed. */
export async function removeMember(t: BoundTables, now: string, id: number): Promise<StoredMember> {
  const members = await membersIn(t);
  const member = members.find((m) => m.id === id);
  if (!member) throw fail('NOT_FOUND', `No member ${id} on this hub.`);
  if (member.removed_at !== null) return member;
  await revokeMemberToken(t, now, member);
  const removed = { ...member, removed_at: now };
  await saveMembers(
    t,
    members.map((m) => (m.id === id ? removed : m)),
  );
  return removed;
}
