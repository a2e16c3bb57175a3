import { createParser } from 'eventsource-parser';

/*
 * `text/event-stream` parsing (the WHATWG HTML event-stream rules) for the typed client and the
 * tests, fed text chunks split at arbitrary points. The line grammar is `eventsource-parser`'s;
 * this adapter adds what an event stream consumer keeps between events: the last event id in force
 * (it persists across events and seeds a reconnection's `Last-Event-ID`) and the default event
 * type `message`.
 */

export interface SseMessage {
  /** The last event id in force when the event was dispatched ('' when none). */
  id: string;
  event: string;
  data: string;
}

export interface SseParserCallbacks {
  onMessage(message: SseMessage): void;
  onRetry?(milliseconds: number): void;
}

export interface SseParser {
  /** Feed the next decoded text chunk. */
  push(chunk: string): void;
  /** The last event id seen so far ('' when none). */
  readonly lastEventId: string;
  /** Discard a partial event (at the end of a stream, per the HTML event-stream rules). */
  reset(): void;
}

export function createSseParser(callbacks: SseParserCallbacks, initialLastEventId = ''): SseParser {
  let lastEventId = initialLastEventId;
  const parser = createParser({
    // Called before onEvent for a block that sets an id, also for a block with no data.
    onId: (id) => {
      lastEventId = id;
    },
    onEvent: (message) => callbacks.onMessage({ id: lastEventId, event: message.event || 'message', data: message.data }),
    onRetry: (milliseconds) => callbacks.onRetry?.(milliseconds),
  });
  return {
    push: (chunk) => parser.feed(chunk),
    get lastEventId() {
      return lastEventId;
    },
    reset: () => parser.reset(),
  };
}
