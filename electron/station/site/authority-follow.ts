import { API_ROUTES } from '#shared/api/routes.ts';
import { SiteAuthoritiesSchema } from '#shared/api/site.ts';
import { type DomainContext, runScript } from '../domain/context.ts';
import { saveSiteTrust, upstreamSettingsIn } from '../sync/settings.ts';
import type { FetchLike } from '../sync/upstream/upstream-client.ts';
import { upstreamFetch } from '../sync/upstream/upstream-fetch.ts';
import { sha256Fingerprint } from '../tls/pinned-fetch.ts';
import { RENEWAL_CHECK_MS } from '../tls/renewal.ts';

/*
 * A member trusts what its hub will serve next (docs/decisions/hub-tls.md, "The authority's
 * successor"): at start and every 12 hours it asks its hub, over the channel it pinned, which
 * authorities the members trust. The successor announced is trusted beside the pinned authority;
 * once the hub serves it (it is `current`), it is the pin. A hub that is away, or of a version
 * without the route (404), leaves the pins as they are.
 */

const CHECK_TIMEOUT_MS = 15_000;

export interface SiteAuthorityFollow {
  /** Asks the hub now; resolves when the answer is stored (never rejects). */
  check(): Promise<void>;
  /** No more checks; resolves once the one under way is done (before the store closes). */
  stop(): Promise<void>;
}

export function startSiteAuthorityFollow(
  ctx: DomainContext,
  options: { log: (message: string) => void; fetch?: FetchLike; everyMs?: number },
): SiteAuthorityFollow {
  let running: Promise<void> | null = null;
  let stopped = false;

  async function checkOnce(): Promise<void> {
    const settings = await upstreamSettingsIn(ctx.store.tables);
    const site = settings?.site;
    if (!settings || !site) return;
    const url = `${settings.returns_url.replace(/\/+$/, '')}${API_ROUTES.getSiteAuthorities.path}`;
    const response = await upstreamFetch(settings, options.fetch)(url, {
      method: 'GET',
      headers: { accept: 'application/json', authorization: `Bearer ${settings.token}` },
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
    // A hub of a version before successors announces none: the pin stays the one joined.
    if (response.status === 404) return void (await response.body?.cancel());
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const parsed = SiteAuthoritiesSchema.safeParse(await response.json());
    if (!parsed.success) throw new Error('the answer is not a list of site authorities');
    const { current, next } = parsed.data;
    for (const authority of [current, ...(next ? [next] : [])]) {
      if (sha256Fingerprint(authority.pem) !== authority.sha256) throw new Error(`the certificate named ${authority.sha256} has another fingerprint`);
    }
    // The hub answered over the pinned channel, so it serves one of the authorities this station trusts.
    if (current.sha256 !== site.hub_ca_sha256 && current.sha256 !== site.hub_ca_next_sha256)
      throw new Error(`the hub names ${current.sha256} as its authority, which this station does not trust`);
    const changed = await runScript(ctx, (t) =>
      saveSiteTrust(t, {
        hub_ca_pem: current.pem,
        hub_ca_sha256: current.sha256,
        ...(next ? { hub_ca_next_pem: next.pem, hub_ca_next_sha256: next.sha256 } : {}),
      }),
    );
    if (!changed) return;
    if (current.sha256 !== site.hub_ca_sha256) options.log(`site: the hub now serves its authority's successor ${current.sha256}; it is the pin from now on`);
    else if (next) options.log(`site: the hub announced its authority's successor ${next.sha256}; trusted beside ${current.sha256} until it is served`);
  }

  const check = async (): Promise<void> => {
    if (stopped) return;
    await (running ??= (async () => {
      try {
        await checkOnce();
      } catch (error) {
        options.log(
          `site: the hub's certificate authorities could not be checked (${error instanceof Error ? error.message : String(error)}); the pins stay as they are`,
        );
      } finally {
        running = null;
      }
    })());
  };
  const timer = setInterval(() => void check(), options.everyMs ?? RENEWAL_CHECK_MS);
  timer.unref();
  return {
    check,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
