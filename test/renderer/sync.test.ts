import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError, StationUnreachableError } from '../../shared/api/client.ts';
import { type Draft, emptyDraft } from '../../renderer/src/inspect/drafts.ts';
import { draftDiff, LineSync } from '../../renderer/src/inspect/line-sync.ts';
import { untilLanded } from '../../shared/api/retry-policy.ts';
import { UploadQueue } from '../../renderer/src/media/upload-queue.ts';
import { describeError } from '../../renderer/src/api/describe-error.ts';
import { sampleMedia, startStation, type TestStation } from '../api/support.ts';
import { manualReturnBody, returnLine } from '../support/manual-return.ts';
import { StationCable } from './station-cable.ts';

/*
 * LineSync against a real station (real store, real HTTP); only the cable to it is faked, so it can
 * be unplugged or lose an answer.
 */
let ts: TestStation;
let parcelNo = 0;
beforeAll(async () => {
  ts = await startStation();
});
afterAll(async () => {
  await ts.close();
});

/** A delivered package of a two-line return, and a cable to the station. */
async function bench() {
  const cable = new StationCable(ts);
  const client = cable.client();
  const ret = await client.createReturn(
    manualReturnBody({ account_id: 1, return_line_items: [returnLine(`SYNC-A-${parcelNo}`, 3), returnLine(`SYNC-B-${parcelNo}`, 1)] }),
  );
  const pkg = await client.createPackage(1, { return_id: ret.id, tracking_number: `SYNC-${parcelNo++}-${Date.now()}`, status: 'delivered' });
  const [lineA, lineB] = ret.return_line_items.map((l) => l.id) as [number, number];
  const items = async () => (await client.getPackage(1, pkg.id)).line_items;
  const lineCalls = () => cable.requests.filter((r) => r.includes('/line_items'));
  return { cable, client, packageId: pkg.id, lineA, lineB, items, lineCalls };
}

const draft = (key: string, returnLineId: number, quantity: number, change: Partial<Draft> = {}): Draft => ({
  ...emptyDraft(key, returnLineId),
  quantity,
  ...change,
});
const noop = {};

describe('LineSync', () => {
  it('coalesces many scans of one item into a create and one PATCH to the final quantity', async () => {
    const b = await bench();
    const sync = new LineSync(b.client, 1, b.packageId, [], [], noop);
    for (let q = 1; q <= 20; q++) sync.set([draft('a', b.lineA, q)]);
    await sync.flush();
    expect((await b.items()).map((i) => i.quantity)).toEqual([20]);
    expect(b.lineCalls().length).toBeLessThanOrEqual(2);
  });

  it('sent again by the retry policy while the station is unreachable, it lands the latest state', async () => {
    const b = await bench();
    b.cable.down = true;
    const retried: unknown[] = [];
    const sync = new LineSync(b.client, 1, b.packageId, [], [], noop);
    sync.set([draft('a', b.lineA, 1)]);
    const landed = untilLanded(() => sync.flush(), { firstMs: 5, maxMs: 5 }, { onRetry: (error) => retried.push(error) });
    await vi.waitFor(() => expect(retried.length).toBeGreaterThanOrEqual(2));
    // Changed while the station is away: the next try sends that too.
    sync.set([draft('a', b.lineA, 2, { condition: 'good' })]);
    b.cable.down = false;
    await landed;
    expect(retried[0]).toBeInstanceOf(StationUnreachableError);
    expect(await b.items()).toMatchObject([{ quantity: 2, condition: 'good' }]);
    expect(sync.pending).toBe(false);
  });

  it('stops on an API refusal, reports it and keeps the drafts to send later', async () => {
    const b = await bench();
    const sync = new LineSync(b.client, 1, b.packageId, [], [], noop);
    // A line of no return of this package: the station refuses it.
    sync.set([draft('a', 987_654, 1)]);
    await expect(sync.flush()).rejects.toBeInstanceOf(ApiError);
    sync.set([draft('a', b.lineA, 2)]);
    await sync.flush();
    expect((await b.items()).map((i) => i.quantity)).toEqual([2]);
  });

  it('deletes an item that was undone, and patches only what changed', async () => {
    const b = await bench();
    const sync = new LineSync(b.client, 1, b.packageId, [], [], noop);
    sync.set([draft('a', b.lineA, 1), draft('b', b.lineB, 1)]);
    await sync.flush();
    sync.set([draft('a', b.lineA, 1, { defective: true })]);
    await sync.flush();
    expect(await b.items()).toMatchObject([{ return_line_item_id: b.lineA, defective: true }]);
    expect(b.lineCalls().map((r) => r.split(' ')[0])).toEqual(['POST', 'POST', 'DELETE', 'PATCH']);
    expect(draftDiff(draft('x', 1, 1), draft('x', 1, 1, { defective: true }))).toEqual({ defective: true });
  });

  it('knows the items a reopened package already holds', async () => {
    const b = await bench();
    const loaded = await b.client.createLineItem(1, b.packageId, { return_line_item_id: b.lineA, quantity: 2 });
    const sync = new LineSync(b.client, 1, b.packageId, [loaded], [draft(`li-${loaded.id}`, b.lineA, 2)], noop);
    sync.set([draft(`li-${loaded.id}`, b.lineA, 3)]);
    await sync.flush();
    expect(b.lineCalls().map((r) => r.split(' ')[0])).toEqual(['POST', 'PATCH']);
    expect((await b.items()).map((i) => [i.id, i.quantity])).toEqual([[loaded.id, 3]]);
    expect(draftDiff(draft('x', 1, 1), draft('x', 1, 1, { tags: ['restock'] }))).toEqual({ tags: ['restock'] });
  });
});

describe('LineSync and a unit labelled elsewhere', () => {
  it('a DELETE the station refuses (labelled elsewhere) puts the unit back where it was, labelled, and goes on', async () => {
    const b = await bench();
    const kept: Array<{ keys: string[]; unit: string; code: string }> = [];
    const sync = new LineSync(b.client, 1, b.packageId, [], [], {
      ...noop,
      onKept: (drafts, unit, error) => kept.push({ keys: drafts.map((d) => d.key), unit: unit.key, code: error.errorCode }),
    });
    const [a, bUnit, c] = [draft('a', b.lineA, 1, { condition: 'good' }), draft('b', b.lineA, 1, { condition: 'new' }), draft('c', b.lineB, 1)];
    sync.set([a, bUnit, c]);
    await sync.flush();
    const [, second] = await b.items();
    await b.client.createUnitLabel(1, b.packageId, second?.id ?? 0);
    // The worker takes the second unit off and changes the third: the station keeps the second.
    sync.set([a, { ...c, condition: 'damaged' }]);
    await sync.flush();
    expect(kept).toEqual([{ keys: ['a', 'b', 'c'], unit: 'b', code: 'UNIT_LABELLED_OR_PUT' }]);
    expect(sync.drafts.map((d) => [d.key, d.labelled === true])).toEqual([
      ['a', false],
      ['b', true],
      ['c', false],
    ]);
    expect((await b.items()).map((i) => [i.id, i.condition])).toEqual([
      [expect.any(Number), 'good'],
      [second?.id, 'new'],
      [expect.any(Number), 'damaged'],
    ]);
    expect(sync.pending).toBe(false);
  });

  it('learns of a label or a put from the station, and puts back a unit taken off here but not yet deleted', async () => {
    const b = await bench();
    const sync = new LineSync(b.client, 1, b.packageId, [], [], noop);
    sync.set([draft('a', b.lineA, 1, { condition: 'good' }), draft('b', b.lineA, 1, { condition: 'new' })]);
    await sync.flush();
    const [first, second] = await b.items();
    expect(sync.learn(await b.items())).toBeNull();
    await b.client.createUnitLabel(1, b.packageId, first?.id ?? 0);
    await b.client.confirmPut(1, b.packageId, second?.id ?? 0, { bin: second?.bin ?? '' });
    // Unit b is taken off on this screen; the change is not sent yet (no flush) when the station's word comes.
    sync.set([sync.drafts[0] as Draft]);
    const learned = sync.learn(await b.items());
    expect(learned?.map((d) => [d.key, d.labelled === true, d.put_confirmed])).toEqual([
      ['a', true, false],
      ['b', false, true],
    ]);
    expect(sync.pending).toBe(false);
  });
});

describe('UploadQueue', () => {
  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

  it('retries an upload until it lands, with the same idempotency key, without blocking the caller', async () => {
    const b = await bench();
    b.cable.down = true;
    const q = new UploadQueue({ api: b.client, onChange: () => undefined, retry: { firstMs: 5, maxMs: 5 }, sleep });
    const upload = q.add(1, b.packageId, new Blob([sampleMedia('image/jpeg', 3)], { type: 'image/jpeg' }));
    expect(q.uploads[0]?.state).not.toBe('done');
    await vi.waitFor(() => expect(q.uploads[0]?.attempts).toBeGreaterThanOrEqual(2));
    // The answer of the first attempt that reaches the station is lost: the retry must not store it twice.
    b.cable.loseAnswers = { method: 'POST', path: /\/media_files(\?|$)/, times: 1 };
    b.cable.down = false;
    await q.idle();
    expect(q.uploads[0]).toMatchObject({ id: upload.id, state: 'done' });
    expect(b.cable.requests.filter((r) => r.endsWith('/media_files'))).toHaveLength(2);
    expect((await b.client.getPackage(1, b.packageId)).media_files).toHaveLength(1);
  });

  it('sends a photo taken while the station was unreachable with the time it was taken', async () => {
    const b = await bench();
    b.cable.down = true;
    const takenAt = new Date(Date.now() - 20 * 60_000);
    const q = new UploadQueue({ api: b.client, onChange: () => undefined, retry: { firstMs: 5, maxMs: 5 }, sleep, now: () => takenAt });
    q.add(1, b.packageId, new Blob([sampleMedia('image/jpeg', 5)], { type: 'image/jpeg' }));
    await vi.waitFor(() => expect(q.uploads[0]?.attempts).toBeGreaterThanOrEqual(2));
    b.cable.down = false;
    await q.idle();
    const [media] = (await b.client.getPackage(1, b.packageId)).media_files;
    expect(media?.captured_at).toBe(takenAt.toISOString());
    expect(Date.parse(media?.created_at ?? '')).toBeGreaterThan(takenAt.getTime());
  });

  it('keeps the photo when the station cannot take its time (a terminal clock far ahead): it is stored without one', async () => {
    const b = await bench();
    const q = new UploadQueue({ api: b.client, onChange: () => undefined, sleep, now: () => new Date(Date.now() + 3_600_000) });
    q.add(1, b.packageId, new Blob([sampleMedia('image/jpeg', 6)], { type: 'image/jpeg' }));
    await q.idle();
    expect(q.uploads[0]).toMatchObject({ state: 'done', capturedAt: null, attempts: 2 });
    expect((await b.client.getPackage(1, b.packageId)).media_files.map((media) => media.captured_at)).toEqual([null]);
  });

  it('gives up on a refusal no retry can fix and says why', async () => {
    const b = await bench();
    const q = new UploadQueue({ api: b.client, onChange: () => undefined, sleep });
    // PNG bytes declared as a JPEG: the station refuses them, and no retry changes that.
    q.add(1, b.packageId, new Blob([sampleMedia('image/png', 4)], { type: 'image/jpeg' }));
    await q.idle();
    expect(q.uploads[0]).toMatchObject({ state: 'failed', attempts: 1 });
    expect(q.uploads[0]?.error).toBeTruthy();
    expect((await b.client.getPackage(1, b.packageId)).media_files).toEqual([]);
  });
});

describe('describeError', () => {
  it('says plainly which status move the station refused', () => {
    const text = describeError(new ApiError(409, 'INVALID_STATUS_TRANSITION', { message: 'x', from: 'cancelled', to: 'received', allowed: [] }));
    expect(text).toMatch(/cancelled package cannot become received/);
    expect(describeError(new StationUnreachableError('x'))).toMatch(/cannot be reached/);
  });
});
