import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from '../../shared/api/sse.ts';

function collect(chunks: string[], initialId = '') {
  const messages: SseMessage[] = [];
  const retries: number[] = [];
  const parser = createSseParser({ onMessage: (m) => messages.push(m), onRetry: (ms) => retries.push(ms) }, initialId);
  for (const chunk of chunks) parser.push(chunk);
  return { messages, retries, parser };
}

/** Every way to cut `text` into two pieces, and a character-by-character split. */
function splits(text: string): string[][] {
  const out: string[][] = [[text], Array.from(text)];
  for (let i = 1; i < text.length; i++) out.push([text.slice(0, i), text.slice(i)]);
  return out;
}

const STREAM =
  ': keep-alive\n' +
  'retry: 3000\n' +
  'id: 41\n' +
  'event: package.created\n' +
  'data: {"a":1}\n' +
  '\n' +
  'id: 42\r\n' +
  'event: package.updated\r\n' +
  'data: line one\r\n' +
  'data:line two\r\n' +
  'data\r\n' +
  '\r\n' +
  'data: no id or event\r' +
  '\r' +
  'event: ignored-without-data\n' +
  '\n' +
  'id: 43\n' +
  'data:  two leading spaces keep one\n' +
  '\n' +
  'data: unterminated';

const EXPECTED: SseMessage[] = [
  { id: '41', event: 'package.created', data: '{"a":1}' },
  { id: '42', event: 'package.updated', data: 'line one\nline two\n' },
  { id: '42', event: 'message', data: 'no id or event' },
  { id: '43', event: 'message', data: ' two leading spaces keep one' },
];

describe('text/event-stream parser', () => {
  it('parses a whole stream', () => {
    const { messages, retries, parser } = collect([STREAM]);
    expect(messages).toEqual(EXPECTED);
    expect(retries).toEqual([3000]);
    expect(parser.lastEventId).toBe('43');
  });

  it('gives the same events for every split of the stream', () => {
    for (const chunks of splits(STREAM)) {
      expect(collect(chunks).messages).toEqual(EXPECTED);
    }
  });

  it('treats CR then LF across chunks as one line end', () => {
    const { messages } = collect(['data: a\r', '\ndata: b\r', '\n\r', '\n']);
    expect(messages).toEqual([{ id: '', event: 'message', data: 'a\nb' }]);
  });

  it('skips a leading BOM, ignores ids with NUL and bad retry values', () => {
    const { messages, retries } = collect(['\uFEFFid: 7\ndata: x\n\nid: 8\u00009\nretry: 1e3\ndata: y\n\n']);
    expect(messages).toEqual([
      { id: '7', event: 'message', data: 'x' },
      { id: '7', event: 'message', data: 'y' },
    ]);
    expect(retries).toEqual([]);
  });

  it('starts from the given Last-Event-ID and lets an empty id reset it', () => {
    const { messages } = collect(['data: a\n\nid\ndata: b\n\n'], '99');
    expect(messages.map((m) => m.id)).toEqual(['99', '']);
  });

  it('reset drops a partial event', () => {
    const messages: SseMessage[] = [];
    const parser = createSseParser({ onMessage: (m) => messages.push(m) });
    parser.push('data: partial\n');
    parser.reset();
    parser.push('data: whole\n\n');
    expect(messages.map((m) => m.data)).toEqual(['whole']);
  });
});
