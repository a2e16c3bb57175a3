/*
 * A parser for `text/event-stream` (WHATWG HTML "Server-sent events", event stream interpretation),
 * fed text chunks split at arbitrary points.
 *
 * - Lines end in CRLF, LF or CR (a CR at the end of a chunk waits for a possible LF).
 * - `data:` lines join with "\n"; `event:` sets the type (default `message`); `id:` sets the last
 *   event id (ignored when it contains NUL) and persists across events; `retry:` (digits) sets the
 *   reconnection delay; lines starting with `:` are comments; one leading space after `:` is dropped.
 * - A blank line dispatches the event; an event with no data lines is not dispatched.
 * - A leading BOM is skipped.
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
  let buffer = '';
  let pendingCr = false;
  let started = false;
  let lastEventId = initialLastEventId;
  let eventType = '';
  let data: string[] = [];

  const dispatch = () => {
    if (data.length > 0) {
      callbacks.onMessage({ id: lastEventId, event: eventType === '' ? 'message' : eventType, data: data.join('\n') });
    }
    data = [];
    eventType = '';
  };

  const line = (text: string) => {
    if (text === '') {
      dispatch();
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        data.push(value);
        break;
      case 'event':
        eventType = value;
        break;
      case 'id':
        if (!value.includes('\u0000')) lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) callbacks.onRetry?.(Number(value));
        break;
      default:
        break;
    }
  };

  return {
    push(chunk: string) {
      let text = chunk;
      if (!started && text.length > 0) {
        started = true;
        if (text.startsWith('\uFEFF')) text = text.slice(1);
      }
      if (pendingCr) {
        pendingCr = false;
        if (text.startsWith('\n')) text = text.slice(1);
      }
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        line(buffer.slice(start, i));
        if (c === '\r') {
          if (i + 1 === buffer.length) pendingCr = true;
          else if (buffer[i + 1] === '\n') i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    get lastEventId() {
      return lastEventId;
    },
    reset() {
      buffer = '';
      data = [];
      eventType = '';
    },
  };
}
