import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STREAMS_PER_TOKEN } from '../../electron/station/api/routes/events.ts';
import { followEvents, type EventStream } from '../support/event-stream.ts';
import { call, createPackage, createReturn, sleep, startStation, type TestStation } from './support.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * Live changes as Server-Sent Events (docs/api-reference.md, Live changes): bearer header, fetch streaming, the
 * shared SSE parser, `Last-Event-ID` resume, account isolation.
 */

let s: TestStation;

/** The account's live changes on the suite's station. */
const openStream = (accountId: number, token: string, lastEventId?: string): Promise<EventStream> => followEvents(s.origin, token, accountId, lastEventId);

beforeAll(async () => {
  s = await startStation();
});
afterAll(async () => {
  await s.close();
});

describe('GET /api/v1/accounts/{id}/events', () => {
  it('streams return.created, package.created and package.updated for API changes, with valid data', async () => {
    const stream = await openStream(1, s.account1);
    try {
      expect(stream.status).toBe(200);
      expect(stream.contentType).toMatch(/^text\/event-stream/);
      await sleep(50);
      const ret = await createReturn(s.origin, s.account1);
      const pkg = await createPackage(s.origin, s.account1, 1, ret.id);
      const moved = await call(s.origin, 'PATCH', `/api/v1/accounts/1/return_packages/${pkg.id}`, { token: s.account1, body: { status: 'delivered' } });
      expect(moved.status).toBe(200);
      await stream.waitFor((events) => events.some((e) => e.event === 'package.updated' && e.data.package.id === pkg.id));
      // Every message the server sent is a valid station event.
      expect(stream.raw.length).toBe(stream.events.length);
      const names = stream.events.map((e) => e.event);
      expect(names).toEqual(expect.arrayContaining(['return.created', 'package.created', 'package.updated']));
      const created = stream.events.find((e) => e.event === 'return.created');
      expect(created?.event === 'return.created' && created.data.return.id).toBe(ret.id);
      const updated = stream.events.find((e) => e.event === 'package.updated');
      expect(updated?.event === 'package.updated' && updated.data.package.status).toBe('delivered');
      expect(stream.events.every((e) => e.data.account_id === 1)).toBe(true);
      // Ids increase.
      const ids = stream.events.filter((e) => e.event !== 'sync.status').map((e) => Number(e.id));
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      stream.close();
    }
  });

  it('opens with the sync state, without an id to resume from', async () => {
    const stream = await openStream(1, s.account1);
    try {
      await stream.waitFor((events) => events.length > 0);
      const first = stream.events[0];
      expect(first?.event).toBe('sync.status');
      expect(first?.event === 'sync.status' && first.data.sync.state).toBe('disabled');
      expect(stream.raw[0]?.id).toBe('');
    } finally {
      stream.close();
    }
  });

  it("does not send another account's changes", async () => {
    const stream = await openStream(1, s.account1);
    try {
      await sleep(50);
      const other = await createReturn(s.origin, s.account2);
      await createPackage(s.origin, s.account2, 2, other.id);
      const mine = await createReturn(s.origin, s.account1);
      await stream.waitFor((events) => events.some((e) => e.event === 'return.created' && e.data.return.id === mine.id));
      expect(stream.events.every((e) => e.data.account_id === 1)).toBe(true);
      expect(stream.events.some((e) => e.event === 'return.created' && e.data.return.id === other.id)).toBe(false);
    } finally {
      stream.close();
    }
  });

  it('Last-Event-ID replays the events after it, and only those', async () => {
    const first = await openStream(1, s.account1);
    let resumeFrom = '';
    let later: number[] = [];
    try {
      await sleep(50);
      const a = await createReturn(s.origin, s.account1);
      await first.waitFor((events) => events.some((e) => e.event === 'return.created' && e.data.return.id === a.id));
      resumeFrom = first.events.at(-1)?.id ?? '';
      expect(resumeFrom).toMatch(/^[1-9][0-9]*$/);
    } finally {
      first.close();
    }
    // Changes made while disconnected.
    const b = await createReturn(s.origin, s.account1);
    const c = await createReturn(s.origin, s.account1);
    await createReturn(s.origin, s.account2);
    later = [b.id, c.id];

    const resumed = await openStream(1, s.account1, resumeFrom);
    try {
      await resumed.waitFor((events) => later.every((id) => events.some((e) => e.event === 'return.created' && e.data.return.id === id)));
      const changes = resumed.events.filter((e) => e.event !== 'sync.status');
      expect(changes.every((e) => Number(e.id) > Number(resumeFrom))).toBe(true);
      expect(resumed.events.every((e) => e.data.account_id === 1)).toBe(true);
      const returnIds = resumed.events.flatMap((e) => (e.event === 'return.created' ? [e.data.return.id] : []));
      expect(returnIds).toEqual(later);
    } finally {
      resumed.close();
    }
  });

  it('Last-Event-ID replays a backlog longer than a page from the stored log, each change once and in order, with changes made meanwhile after it', async () => {
    const first = await openStream(1, s.account1);
    const a = await createReturn(s.origin, s.account1);
    await first.waitFor((events) => events.some((e) => e.event === 'return.created' && e.data.return.id === a.id)).finally(() => first.close());
    const resumeFrom = first.events.at(-1)?.id ?? '';
    // More than one page of the replay (500 entries), and the engine holding none of it (the sweep shed it).
    const backlog: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (backlog.length < 640) backlog.push((await createReturn(s.origin, s.account1)).id);
      }),
    );
    await s.station.ctx.store.shedCold();
    expect(await insidesOf(s.station.ctx.store).db.change_log.count()).toBe(0);

    const resumed = await openStream(1, s.account1, resumeFrom);
    try {
      const meanwhile = await Promise.all(Array.from({ length: 5 }, async () => (await createReturn(s.origin, s.account1)).id));
      const wanted = new Set([...backlog, ...meanwhile]);
      const created = () => resumed.events.flatMap((e) => (e.event === 'return.created' ? [e.data.return.id] : []));
      await resumed.waitFor(() => created().filter((id) => wanted.has(id)).length === wanted.size, 15_000);
      const ids = resumed.events.filter((e) => e.event !== 'sync.status').map((e) => Number(e.id));
      expect(ids[0]).toBeGreaterThan(Number(resumeFrom));
      // Strictly rising: in order, none twice.
      expect(ids.every((id, i) => i === 0 || id > (ids[i - 1] ?? 0))).toBe(true);
      expect(new Set(created())).toEqual(wanted);
    } finally {
      resumed.close();
    }
  });

  it('a malformed Last-Event-ID is refused; the station token may stream any account', async () => {
    const bad = await call(s.origin, 'GET', '/api/v1/accounts/1/events', { token: s.account1, headers: { 'last-event-id': 'abc' } });
    expect(bad.status).toBe(400);
    const station = await openStream(2, s.stationToken);
    try {
      expect(station.status).toBe(200);
      await sleep(50);
      const ret = await createReturn(s.origin, s.account2);
      await station.waitFor((events) => events.some((e) => e.event === 'return.created' && e.data.return.id === ret.id));
    } finally {
      station.close();
    }
  });

  it('bounds the open streams of one token on one account, and frees a place when one closes', async () => {
    const streams: EventStream[] = [];
    try {
      for (let i = 0; i < MAX_STREAMS_PER_TOKEN; i++) streams.push(await openStream(2, s.account2));
      expect(streams.every((stream) => stream.status === 200)).toBe(true);
      const refused = await call(s.origin, 'GET', '/api/v1/accounts/2/events', { token: s.account2 });
      expect(refused.status).toBe(429);
      expect(refused.json).toMatchObject({ error_code: 'RATE_LIMITED' });
      // Another token is not affected.
      const station = await openStream(2, s.stationToken);
      expect(station.status).toBe(200);
      station.close();
      streams.pop()?.close();
      let reopened = 0;
      for (let attempt = 0; attempt < 50 && reopened !== 200; attempt++) {
        await sleep(20);
        const again = await openStream(2, s.account2);
        reopened = again.status;
        if (reopened === 200) streams.push(again);
      }
      expect(reopened).toBe(200);
    } finally {
      for (const stream of streams) stream.close();
    }
  });
});
