import { type ApiClient, ApiError } from '../../shared/api/client.ts';

/** The supervisor tests set up on a station of their own (badge and PIN as a person would type them). */
export const TEST_SUPERVISOR = { name: 'Test supervisor', badge_code: 'TEST-SUP', pin: '1357' } as const;

/**
 * A client on a supervisor session of the station a terminal's token reaches: the station's first
 * supervisor on a fresh station, else TEST_SUPERVISOR signing in by badge and PIN.
 */
export async function asSupervisor(terminal: ApiClient): Promise<ApiClient> {
  try {
    return terminal.withToken((await terminal.createFirstSupervisor(TEST_SUPERVISOR)).token);
  } catch (error) {
    if (!(error instanceof ApiError && error.errorCode === 'SUPERVISOR_EXISTS')) throw error;
    return terminal.withToken((await terminal.createSupervisorSession({ badge_code: TEST_SUPERVISOR.badge_code, pin: TEST_SUPERVISOR.pin })).token);
  }
}
