import { ApiError } from '#shared/api/client.ts';
import type { PackageLineItem, PackageLineItemCreateInput, PackageLineItemUpdate, PutConfirmation } from '#shared/api/line-items.ts';
import type { Draft } from './drafts.ts';

/*
 * Persists the drafts of one package: the screen changes drafts instantly (scans never wait for the
 * network) and this loop brings the station's line items to the latest drafts, one request at a
 * time. Ten edits of one unit while a request is in flight become one PATCH to the final state,
 * never ten racing increments. A dropped connection is retried until it lands; an API refusal
 * stops the loop and is reported, with the drafts kept on screen.
 */

export interface LineItemApi {
  createLineItem(accountId: number, packageId: number, body: PackageLineItemCreateInput, o?: { idempotencyKey?: string }): Promise<PackageLineItem>;
  updateLineItem(accountId: number, packageId: number, lineItemId: number, body: PackageLineItemUpdate): Promise<PackageLineItem>;
  deleteLineItem(accountId: number, packageId: number, lineItemId: number): Promise<void>;
  confirmPut(accountId: number, packageId: number, lineItemId: number, body: PutConfirmation): Promise<PackageLineItem>;
}

export type SyncState = 'saved' | 'saving' | 'retrying' | 'failed';

export interface LineSyncEvents {
  onState(state: SyncState, error: unknown): void;
  /** After each change the station confirmed: what it now holds (kept so a reload resumes, not repeats). */
  onSaved?(saved: readonly SavedLine[]): void;
}

/** A draft as the station last confirmed it, with the id of its line item. */
export interface SavedLine {
  key: string;
  id: number;
  draft: Draft;
}

interface Saved {
  id: number;
  draft: Draft;
}

export interface LineSyncOptions {
  retryMs?: readonly number[];
  /** When false, changes wait for `flush()` (a queue that sends one package at a time runs it). */
  autoRun?: boolean;
}

const FIELDS = ['return_line_item_id', 'quantity', 'condition', 'defective', 'notes', 'barcode', 'tags', 'name', 'merchant_sku'] as const;

/** The fields of `next` that differ from `prev`, as a PATCH body; null when nothing changed. */
export function draftDiff(prev: Draft, next: Draft): PackageLineItemUpdate | null {
  const body: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const a = prev[field];
    const b = next[field];
    const same = Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((x, i) => x === b[i]) : a === b;
    if (!same) body[field] = b;
  }
  // Who set a new condition goes with it (the station records it with the time).
  if (body.condition !== undefined && next.condition !== null && next.condition_by != null) body.condition_by = next.condition_by;
  return Object.keys(body).length === 0 ? null : (body as PackageLineItemUpdate);
}

/**
 * A person's override as a PATCH body's part: the disposition, its bin, why and who; `disposition:
 * null` hands the unit back to the rules (an undone override). Null when the override did not change.
 */
export function overrideDiff(prev: Draft, next: Draft): PackageLineItemUpdate | null {
  if (next.disposition_source === 'override' && next.override !== null && next.disposition !== null) {
    if (prev.disposition_source === 'override' && prev.disposition === next.disposition && prev.bin === next.bin && prev.override === next.override) return null;
    return { disposition: next.disposition, ...(next.bin !== null ? { bin: next.bin } : {}), disposition_reason: next.override.reason, ...(next.override.by !== null ? { disposition_by: next.override.by } : {}) };
  }
  return prev.disposition_source === 'override' ? { disposition: null } : null;
}

/** What the station holds right after a create: the rules' answer, no override, no put (those follow as their own steps). */
function asCreated(draft: Draft): Draft {
  return { ...draft, disposition_source: draft.disposition_source === 'override' ? null : draft.disposition_source, override: null, put_confirmed: false };
}

/** What was saved: `sent` with the unit id the station gave the item (the label's barcode; a draft made on the screen does not know it). */
const withUnitOf = (sent: Draft, item: PackageLineItem): Draft => (sent.unit_id === null && item.unit_id ? { ...sent, unit_id: item.unit_id } : sent);

export function createBody(draft: Draft): PackageLineItemCreateInput {
  const body: PackageLineItemCreateInput = {
    return_line_item_id: draft.return_line_item_id,
    quantity: draft.quantity,
    condition: draft.condition,
    defective: draft.defective,
    notes: draft.notes,
    barcode: draft.barcode,
    tags: draft.tags,
  };
  if (draft.condition !== null && draft.condition_by != null) body.condition_by = draft.condition_by;
  // Name and SKU default to the return line's; only unexpected items bring their own.
  if (draft.name !== null) body.name = draft.name;
  if (draft.merchant_sku !== null) body.merchant_sku = draft.merchant_sku;
  return body;
}

export class LineSync {
  readonly #api: LineItemApi;
  readonly #accountId: number;
  readonly #packageId: number;
  readonly #events: LineSyncEvents;
  readonly #saved = new Map<string, Saved>();
  readonly #retryMs: readonly number[];
  #desired: readonly Draft[] = [];
  #running: Promise<void> | null = null;
  #failure: unknown = null;
  #stopped = false;
  readonly #autoRun: boolean;

  constructor(
    api: LineItemApi,
    accountId: number,
    packageId: number,
    loaded: readonly PackageLineItem[],
    drafts: readonly Draft[],
    events: LineSyncEvents,
    options: LineSyncOptions | readonly number[] = {},
  ) {
    const { retryMs = [500, 1000, 2000, 4000, 8000], autoRun = true } = Array.isArray(options) ? { retryMs: options as readonly number[] } : (options as LineSyncOptions);
    this.#api = api;
    this.#accountId = accountId;
    this.#packageId = packageId;
    this.#events = events;
    this.#retryMs = retryMs;
    this.#autoRun = autoRun;
    for (const draft of drafts) {
      const item = loaded.find((i) => `li-${i.id}` === draft.key);
      if (item) this.#saved.set(draft.key, { id: item.id, draft });
    }
    this.#desired = drafts;
  }

  /** A sync that resumes where an earlier one stopped: `saved` is what the station confirmed then. */
  static resume(api: LineItemApi, accountId: number, packageId: number, saved: readonly SavedLine[], drafts: readonly Draft[], events: LineSyncEvents, options: LineSyncOptions = {}): LineSync {
    const sync = new LineSync(api, accountId, packageId, [], drafts, events, options);
    for (const line of saved) sync.#saved.set(line.key, { id: line.id, draft: line.draft });
    return sync;
  }

  /** What the station holds, as last confirmed. */
  get saved(): SavedLine[] {
    return [...this.#saved].map(([key, { id, draft }]) => ({ key, id, draft }));
  }

  get drafts(): readonly Draft[] {
    return this.#desired;
  }

  /** The refusal that stopped this sync, or null. */
  get failure(): unknown {
    return this.#failure;
  }

  /** The drafts to bring the station to (the latest call wins). */
  set(drafts: readonly Draft[]): void {
    this.#desired = drafts;
    this.#failure = null;
    if (this.#autoRun) this.#kick();
  }

  /** Resolves when the station holds the latest drafts; rejects with the API's refusal. */
  async flush(): Promise<void> {
    this.#kick();
    while (this.#running) await this.#running;
    if (this.#failure !== null) throw this.#failure;
  }

  /** The unit ids the station gave the drafts it created (by draft key). */
  unitIds(): Map<string, string> {
    const ids = new Map<string, string>();
    for (const [key, { draft }] of this.#saved) if (draft.unit_id !== null) ids.set(key, draft.unit_id);
    return ids;
  }

  /** The server id of a draft, once created. */
  idOf(key: string): number | null {
    return this.#saved.get(key)?.id ?? null;
  }

  get pending(): boolean {
    return this.#nextStep() !== null;
  }

  stop(): void {
    this.#stopped = true;
  }

  #kick(): void {
    if (this.#running || this.#stopped || this.#failure !== null) return;
    this.#running = this.#run().finally(() => {
      this.#running = null;
    });
  }

  #nextStep(): (() => Promise<void>) | null {
    const desiredKeys = new Set(this.#desired.map((d) => d.key));
    for (const [key, saved] of this.#saved) {
      if (!desiredKeys.has(key)) {
        return async () => {
          await this.#api.deleteLineItem(this.#accountId, this.#packageId, saved.id);
          this.#saved.delete(key);
        };
      }
    }
    for (const draft of this.#desired) {
      const saved = this.#saved.get(draft.key);
      if (!saved) {
        return async () => {
          const item = await this.#api.createLineItem(this.#accountId, this.#packageId, createBody(draft), {
            idempotencyKey: `pkg-${this.#packageId}-${draft.key}`,
          });
          this.#saved.set(draft.key, { id: item.id, draft: withUnitOf(asCreated(draft), item) });
        };
      }
      const diff = draftDiff(saved.draft, draft);
      const override = overrideDiff(saved.draft, draft);
      if (diff || override) {
        // The put waits for its own step (below): the PATCH may change the bin first.
        const sent = { ...draft, put_confirmed: saved.draft.put_confirmed && draft.put_confirmed };
        return async () => {
          const item = await this.#api.updateLineItem(this.#accountId, this.#packageId, saved.id, { ...diff, ...override });
          this.#saved.set(draft.key, { id: saved.id, draft: withUnitOf(sent, item) });
        };
      }
      if (draft.put_confirmed && !saved.draft.put_confirmed && draft.bin !== null) {
        const bin = draft.bin;
        return async () => {
          const item = await this.#api.confirmPut(this.#accountId, this.#packageId, saved.id, { bin, ...(draft.put_by != null ? { put_by: draft.put_by } : {}) });
          this.#saved.set(draft.key, { id: saved.id, draft: withUnitOf(draft, item) });
        };
      }
    }
    return null;
  }

  async #run(): Promise<void> {
    let attempt = 0;
    for (;;) {
      if (this.#stopped) return;
      const step = this.#nextStep();
      if (!step) {
        this.#events.onState('saved', null);
        return;
      }
      this.#events.onState(attempt === 0 ? 'saving' : 'retrying', null);
      try {
        await step();
        attempt = 0;
        this.#events.onSaved?.(this.saved);
      } catch (error) {
        if (error instanceof ApiError && !retriable(error)) {
          this.#failure = error;
          this.#events.onState('failed', error);
          return;
        }
        // Unreachable station, 429 or 5xx: keep the work and try again.
        this.#events.onState('retrying', error);
        const delay = this.#retryMs[Math.min(attempt, this.#retryMs.length - 1)] ?? 1000;
        attempt++;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}

export function retriable(error: ApiError): boolean {
  return error.status === 429 || error.status >= 500;
}
