import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashTokenSecret } from '../auth/token-secret.ts';
import type { DomainContext } from '../domain/context.ts';
import { fail } from '../errors.ts';
import { membersIn, saveMembers, type StoredMember } from '../site/hub.ts';

/** The header a member's requests carry: the changes it holds unsent (its sync's pending count). */
export const PENDING_HEADER = 'returns-station-pending';
/** A member's last contact is written at most this often (and whenever its pending count changes). */
const CONTACT_WRITE_MS = 10_000;
const BEARER = /^Bearer ([\x21-\x7E]{1,512})$/;

/**
 * On a hub, after the token is resolved: notes each member's contact (when, and the pending count its
 * requests tell), and answers a removed member's revoked token with SITE_MEMBER_REMOVED rather than
 * a bare INVALID_TOKEN, so the station can say why its sync stopped. The members are read from the
 * store once and again after any change to `station_meta`.
 */
export function watchSiteMembers(api: FastifyInstance, ctx: DomainContext): void {
  let byToken: Map<number, StoredMember> | null = null;
  let removedByHash = new Map<string, StoredMember>();
  const written = new Map<number, { at: number; pending: number | null }>();
  const stopWatching = ctx.store.onChange(['station_meta'], () => {
    byToken = null;
  });
  api.addHook('onClose', async () => stopWatching());

  const load = async (): Promise<Map<number, StoredMember>> => {
    const members = await membersIn(ctx.store.tables);
    const live = new Map(members.filter((m) => m.removed_at === null).map((m) => [m.token_id, m]));
    removedByHash = new Map(members.filter((m) => m.removed_at !== null).map((m) => [m.token_hash, m]));
    byToken = live;
    return live;
  };

  const noteContact = (member: StoredMember, request: FastifyRequest): void => {
    const header = request.headers[PENDING_HEADER];
    const told = typeof header === 'string' && /^\d{1,9}$/.test(header) ? Number(header) : null;
    const at = Date.parse(ctx.clock.now());
    const last = written.get(member.id);
    const pending = told ?? last?.pending ?? member.pending_changes;
    if (last && at - last.at < CONTACT_WRITE_MS && pending === last.pending) return;
    written.set(member.id, { at, pending });
    void ctx.store
      .write(async (t) => {
        const members = await membersIn(t);
        const now = ctx.clock.now();
        await saveMembers(
          t,
          members.map((m) => (m.id === member.id && m.removed_at === null ? { ...m, last_contact_at: now, pending_changes: pending } : m)),
        );
      })
      .catch((error: unknown) => request.log.warn({ err: error }, 'site: a member’s last contact was not written'));
  };

  const check = (members: Map<number, StoredMember>, request: FastifyRequest): void => {
    const principal = request.principal;
    if (principal) {
      const member = members.get(principal.tokenId);
      if (member) noteContact(member, request);
      return;
    }
    if (removedByHash.size === 0) return;
    const secret = BEARER.exec(request.headers.authorization ?? '')?.[1];
    const removed = secret === undefined ? undefined : removedByHash.get(hashTokenSecret(secret));
    if (removed) {
      const error = fail(
        'SITE_MEMBER_REMOVED',
        `This station (member ${removed.id}, ${removed.name}) was removed from the site by its hub at ${removed.removed_at ?? ''}: its token no longer works. Its unsent changes stay on it.`,
      );
      error.headers['www-authenticate'] = 'Bearer';
      throw error;
    }
  };

  // A done callback: when the members are in memory, nothing here makes a promise.
  api.addHook('onRequest', (request, _reply, done) => {
    try {
      if (byToken) {
        check(byToken, request);
        return done();
      }
      load().then((members) => {
        try {
          check(members, request);
          done();
        } catch (error) {
          done(error as Error);
        }
      }, done);
    } catch (error) {
      done(error as Error);
    }
  });
}
