import { API_ROUTES } from '#shared/api/routes.ts';
import { SiteConfigSchema } from '#shared/api/site-config.ts';
import { type DomainContext, runScript } from '../domain/context.ts';
import { upstreamSettingsIn } from '../sync/settings.ts';
import { upstreamFetch } from '../sync/upstream/upstream-fetch.ts';
import type { FetchLike } from '../sync/upstream/upstream-client.ts';
import { takeSiteConfig, takenVersionOf } from './site-config.ts';

/*
 * A member takes its hub's configuration (docs/decisions/site-config.md): at start, when the hub's
 * event stream says it changed (or opens again), and after each interval's pull round — a request
 * with the version it has, which the hub answers 304 when nothing changed. Checks run one at a time;
 * one asked for during a check runs right after it. A hub that cannot be reached leaves the last
 * configuration taken in force.
 */

const CHECK_TIMEOUT_MS = 15_000;

export interface SiteConfigFollow {
  /** Checks the hub's configuration now (or right after the check under way). */
  check(): void;
  /** Resolves when no check is under way or asked for (the tests wait on it). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export function startSiteConfigFollow(ctx: DomainContext, options: { log: (message: string) => void; fetch?: FetchLike }): SiteConfigFollow {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let lastProblem = '';

  async function checkOnce(): Promise<void> {
    const settings = await upstreamSettingsIn(ctx.store.tables);
    if (!settings?.site) return;
    const version = await takenVersionOf(ctx.store.tables);
    const url = `${settings.returns_url.replace(/\/+$/, '')}${API_ROUTES.getSiteConfig.path}`;
    const response = await upstreamFetch(settings, options.fetch)(url, {
      method: 'GET',
      headers: { accept: 'application/json', authorization: `Bearer ${settings.token}`, ...(version === null ? {} : { 'if-none-match': `"${version}"` }) },
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
    if (response.status === 304) return void (await response.body?.cancel());
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const parsed = SiteConfigSchema.safeParse(await response.json());
    if (!parsed.success) throw new Error('the answer is not a site configuration');
    const took = await runScript(ctx, (t, now) => takeSiteConfig(t, now, parsed.data, settings.returns_url));
    if (took) options.log(`site: took the hub's configuration ${parsed.data.version} (${parsed.data.workers.length} workers)`);
  }

  async function loop(): Promise<void> {
    do {
      again = false;
      try {
        await checkOnce();
        lastProblem = '';
      } catch (error) {
        const problem = error instanceof Error ? error.message : String(error);
        // Said once per kind of problem: a hub away for an hour is one line, not one a minute.
        if (problem !== lastProblem && !stopped)
          options.log(`site: the hub's configuration could not be checked (${problem}); the last one taken stays in force`);
        lastProblem = problem;
      }
    } while (again && !stopped);
    running = null;
  }

  return {
    check() {
      if (stopped) return;
      if (running) again = true;
      else running = loop();
    },
    async idle() {
      while (running) await running;
    },
    async stop() {
      stopped = true;
      await running;
    },
  };
}
