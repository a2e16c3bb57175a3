import { parseStationEvent, type StationEvent } from '#shared/api/events.ts';
import { createSseParser } from '#shared/api/sse.ts';

/*
 * A client of an account's live changes (`GET /api/v1/accounts/{id}/events`) for the suites that
 * watch them arrive: the bearer header, fetch streaming and the shared SSE parser, as an integration
 * would read them (docs/api-reference.md, Live changes).
 */

export interface EventStream {
  /** The events parsed so far, in arrival order (messages that are no station event are left out). */
  events: StationEvent[];
  /** Every message as sent. */
  raw: Array<{ id: string; event: string; data: string }>;
  status: number;
  contentType: string | null;
  /** Resolves once `predicate` holds for the events so far; throws after `ms` naming what arrived. */
  waitFor(predicate: (events: StationEvent[]) => boolean, ms?: number): Promise<void>;
  close(): void;
}

export async function followEvents(origin: string, token: string, accountId: number, lastEventId?: string): Promise<EventStream> {
  const controller = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'text/event-stream' };
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  const response = await fetch(`${origin}/api/v1/accounts/${accountId}/events`, { headers, signal: controller.signal });
  const events: StationEvent[] = [];
  const raw: EventStream['raw'] = [];
  const parser = createSseParser({
    onMessage(message) {
      raw.push(message);
      const parsed = parseStationEvent(message);
      if (parsed) events.push(parsed);
    },
  });
  const body = response.body;
  if (body) {
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of body) parser.push(decoder.decode(chunk as Uint8Array, { stream: true }));
      } catch {
        // closed by close()
      }
    })();
  }
  return {
    events,
    raw,
    status: response.status,
    contentType: response.headers.get('content-type'),
    async waitFor(predicate, ms = 5000) {
      const until = Date.now() + ms;
      while (!predicate(events)) {
        if (Date.now() > until) throw new Error(`Timed out; got ${JSON.stringify(events.map((e) => [e.id, e.event]))}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () => controller.abort(),
  };
}
