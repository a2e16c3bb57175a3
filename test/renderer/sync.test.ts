import { describe, expect, it } from 'vitest';
import { ApiError, StationUnreachableError } from '../../shared/api/client.ts';
import type { PackageLineItem, PackageLineItemCreateInput, PackageLineItemUpdate } from '../../shared/api/line-items.ts';
import type { MediaFile } from '../../shared/api/media.ts';
import { type Draft, emptyDraft } from '../../renderer/src/inspect/drafts.ts';
import { draftDiff, LineSync, type LineItemApi } from '../../renderer/src/inspect/line-sync.ts';
import { UploadQueue } from '../../renderer/src/media/upload-queue.ts';
import { describeError } from '../../renderer/src/api/describe-error.ts';

/** An in-memory line item endpoint that can fail on demand. */
class FakeLineItems implements LineItemApi {
  items = new Map<number, PackageLineItem>();
  calls: string[] = [];
  failNext: unknown[] = [];
  #id = 100;
  async #maybeFail() {
    await new Promise((r) => setTimeout(r, 1));
    const f = this.failNext.shift();
    if (f) throw f;
  }
  async createLineItem(_a: number, _p: number, body: PackageLineItemCreateInput): Promise<PackageLineItem> {
    this.calls.push('create');
    await this.#maybeFail();
    const item: PackageLineItem = {
      id: this.#id++,
      return_line_item_id: body.return_line_item_id ?? null,
      quantity: body.quantity ?? 1,
      merchant_sku: body.merchant_sku ?? null,
      name: body.name ?? null,
      condition: body.condition ?? null,
      defective: body.defective ?? false,
      notes: body.notes ?? null,
      barcode: body.barcode ?? null,
      tags: body.tags ?? [],
    };
    this.items.set(item.id, item);
    return item;
  }
  async updateLineItem(_a: number, _p: number, id: number, body: PackageLineItemUpdate): Promise<PackageLineItem> {
    this.calls.push(`patch ${Object.keys(body).join(',')}`);
    await this.#maybeFail();
    const item = { ...this.items.get(id), ...body } as PackageLineItem;
    this.items.set(id, item);
    return item;
  }
  async deleteLineItem(_a: number, _p: number, id: number): Promise<void> {
    this.calls.push('delete');
    await this.#maybeFail();
    this.items.delete(id);
  }
}

const draft = (key: string, quantity: number, change: Partial<Draft> = {}): Draft => ({ ...emptyDraft(key, 71), quantity, ...change });
const noop = { onState: () => undefined };

describe('LineSync', () => {
  it('coalesces many scans of one item into a create and one PATCH to the final quantity', async () => {
    const api = new FakeLineItems();
    const sync = new LineSync(api, 1, 9, [], [], noop);
    for (let q = 1; q <= 20; q++) sync.set([draft('a', q)]);
    await sync.flush();
    expect([...api.items.values()].map((i) => i.quantity)).toEqual([20]);
    expect(api.calls.length).toBeLessThanOrEqual(2);
  });

  it('retries while the station is unreachable and lands the latest state', async () => {
    const api = new FakeLineItems();
    api.failNext = [new StationUnreachableError('down'), new StationUnreachableError('down')];
    const states: string[] = [];
    const sync = new LineSync(api, 1, 9, [], [], { onState: (s) => states.push(s) }, [1, 1]);
    sync.set([draft('a', 1, { condition: 'good' })]);
    await sync.flush();
    expect(states).toContain('retrying');
    expect(states.at(-1)).toBe('saved');
    expect([...api.items.values()][0]).toMatchObject({ quantity: 1, condition: 'good' });
  });

  it('stops on an API refusal, reports it and keeps the drafts to send later', async () => {
    const api = new FakeLineItems();
    api.failNext = [new ApiError(422, 'VALIDATION_FAILED', { message: 'bad' })];
    const sync = new LineSync(api, 1, 9, [], [], noop);
    sync.set([draft('a', 1)]);
    await expect(sync.flush()).rejects.toBeInstanceOf(ApiError);
    sync.set([draft('a', 2)]);
    await sync.flush();
    expect([...api.items.values()].map((i) => i.quantity)).toEqual([2]);
  });

  it('deletes an item that was undone, and patches only what changed', async () => {
    const api = new FakeLineItems();
    const sync = new LineSync(api, 1, 9, [], [], noop);
    sync.set([draft('a', 1), draft('b', 1, { return_line_item_id: 72 })]);
    await sync.flush();
    sync.set([draft('a', 1, { defective: true })]);
    await sync.flush();
    expect(api.items.size).toBe(1);
    expect(api.calls).toContain('patch defective');
    expect(api.calls).toContain('delete');
  });

  it('knows the items a reopened package already holds', async () => {
    const api = new FakeLineItems();
    const loaded: PackageLineItem = { id: 5, return_line_item_id: 71, quantity: 2, merchant_sku: null, name: null, condition: null, defective: false, notes: null, barcode: null, tags: [] };
    api.items.set(5, loaded);
    const sync = new LineSync(api, 1, 9, [loaded], [draft('li-5', 2)], noop);
    sync.set([draft('li-5', 3)]);
    await sync.flush();
    expect(api.calls).toEqual(['patch quantity']);
    expect(draftDiff(draft('x', 1), draft('x', 1, { tags: ['restock'] }))).toEqual({ tags: ['restock'] });
  });
});

describe('UploadQueue', () => {
  const media = (id: number): MediaFile => ({ id, url: `/media/${id}`, type: 'image', created_at: '2026-01-01T00:00:00.000Z' }) as MediaFile;

  it('retries an upload until it lands, with the same idempotency key, without blocking the caller', async () => {
    const keys: string[] = [];
    let fails = 2;
    const q = new UploadQueue({
      api: {
        uploadMedia: async (_a, _p, _b, o) => {
          keys.push(o.idempotencyKey ?? '');
          if (fails-- > 0) throw new StationUnreachableError('down');
          return media(1);
        },
      },
      onChange: () => undefined,
      retryMs: [1],
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    });
    const upload = q.add(1, 2, new Blob(['x'], { type: 'image/jpeg' }));
    expect(q.uploads[0]?.state).not.toBe('done');
    await q.idle();
    expect(q.uploads[0]).toMatchObject({ id: upload.id, state: 'done', attempts: 3 });
    expect(new Set(keys).size).toBe(1);
  });

  it('gives up on a refusal no retry can fix and says why', async () => {
    const q = new UploadQueue({
      api: { uploadMedia: async () => Promise.reject(new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', { message: 'Not an image.' })) },
      onChange: () => undefined,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    });
    q.add(1, 2, new Blob(['x'], { type: 'image/jpeg' }));
    await q.idle();
    expect(q.uploads[0]).toMatchObject({ state: 'failed', error: 'Not an image.' });
  });
});

describe('describeError', () => {
  it('says plainly which status move the station refused', () => {
    const text = describeError(new ApiError(409, 'INVALID_STATUS_TRANSITION', { message: 'x', from: 'cancelled', to: 'received', allowed: [] }));
    expect(text).toMatch(/cancelled package cannot become received/);
    expect(describeError(new StationUnreachableError('x'))).toMatch(/cannot be reached/);
  });
});
