import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FetchLike, UpstreamSettings } from './upstream-client.ts';
import { upstreamFetch } from './upstream-fetch.ts';

/** How long the hub may take to start answering a photo's bytes. */
const HUB_MEDIA_TIMEOUT_MS = 10_000;

/**
 * The bytes of a photo kept at the site's hub (docs/decisions/site-receipt.md), read as a screen shows
 * it: through the same pinned connection as sync, and only from the hub's own origin (a stored URL
 * never sends the station elsewhere). The capability URL is the permission: no token is sent. Null
 * when the station joined no hub or the hub does not give them now.
 */
export async function hubMediaBytes(settings: UpstreamSettings | null, url: string, injected?: FetchLike): Promise<Readable | null> {
  if (!settings?.site) return null;
  try {
    if (new URL(url).origin !== new URL(settings.base_url).origin) return null;
    const response = await upstreamFetch(settings, injected)(url, { method: 'GET', signal: AbortSignal.timeout(HUB_MEDIA_TIMEOUT_MS) });
    if (!response.ok || !response.body) return null;
    return Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  } catch {
    return null;
  }
}
