import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { ApiClient } from '#shared/api/client.ts';
import type { FirstSupervisorInput, SupervisorSession } from '#shared/api/supervisor.ts';
import { describeError, SESSION_ENDED } from '../api/describe-error.ts';
import { onSupervisorRequired, onSupervisorSessionEnded, pageClient } from '../api/station-api.ts';

/*
 * The supervisor signed in on this screen, if any (docs/decisions/supervisor.md): their session's
 * token goes with the calls only a supervisor may make; the dock's own work keeps the terminal's
 * token. Kept in memory only: a reload, the session's end or "End supervisor" drops it.
 */

export interface SupervisorSessionState {
  session: SupervisorSession | null;
  /** The sign-in dialog is open, with why (a refused change) or null, and the badge already scanned. */
  asking: SupervisorAsk | null;
  /**
   * Opens the sign-in dialog; with `badge` (a supervisor's, scanned) it asks only the PIN, and
   * `then` runs once that supervisor is signed in (a badge scanned at sign-in signs them in to work too).
   */
  ask(reason?: string | null, badge?: string | null, then?: (session: SupervisorSession) => void): void;
  cancel(): void;
  /** Badge and PIN; null when signed in, else the refusal in words. */
  signIn(badge: string, pin: string): Promise<string | null>;
  /** The station's first supervisor; null when made and signed in, else the refusal in words. */
  setUpFirst(input: FirstSupervisorInput): Promise<string | null>;
  signOut(): Promise<void>;
  /** The station refused the session's token (it ended there): forget it and ask for a sign-in, saying why. */
  ended(): void;
}

export interface SupervisorAsk {
  reason: string | null;
  badge: string | null;
  then: ((session: SupervisorSession) => void) | null;
}

export type SupervisorSessionStore = UseBoundStore<StoreApi<SupervisorSessionState>>;

export function createSupervisorSessionStore(
  client: Pick<ApiClient, 'createSupervisorSession' | 'createFirstSupervisor' | 'endSupervisorSession' | 'useSupervisorToken'>,
): SupervisorSessionStore {
  let expiry: ReturnType<typeof setTimeout> | undefined;
  return create<SupervisorSessionState>()((set, get) => {
    const begin = (session: SupervisorSession | null) => {
      clearTimeout(expiry);
      client.useSupervisorToken(session?.token ?? null);
      set({ session, asking: null });
      if (session) expiry = setTimeout(() => begin(null), Math.max(0, Date.parse(session.expires_at) - Date.now()));
    };
    return {
      session: null,
      asking: null,
      ask(reason = null, badge = null, then) {
        set({ asking: { reason, badge, then: then ?? null } });
      },
      cancel() {
        set({ asking: null });
      },
      async signIn(badge, pin) {
        try {
          const then = get().asking?.then ?? null;
          const session = await client.createSupervisorSession({ badge_code: badge, pin });
          begin(session);
          then?.(session);
          return null;
        } catch (error) {
          return describeError(error);
        }
      },
      async setUpFirst(input) {
        try {
          begin(await client.createFirstSupervisor(input));
          return null;
        } catch (error) {
          return describeError(error);
        }
      },
      async signOut() {
        await client.endSupervisorSession().catch(() => undefined);
        begin(null);
      },
      ended() {
        begin(null);
        set({ asking: { reason: SESSION_ENDED, badge: null, then: null } });
      },
    };
  });
}

/** This page's supervisor session; a change the station refused to this screen asks for a supervisor. */
export const useSupervisorSession = createSupervisorSessionStore(pageClient);
onSupervisorRequired((reason) => useSupervisorSession.getState().ask(reason));
onSupervisorSessionEnded(() => useSupervisorSession.getState().ended());
