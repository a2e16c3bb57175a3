import { ApiError } from '#shared/api/client.ts';
import { worthRetrying } from '#shared/api/retry-policy.ts';
import type { PackageLineItem, PackageLineItemCreateInput, PackageLineItemUpdate, PutConfirmation } from '#shared/api/line-items.ts';
import type { Draft, SerialCheck } from './drafts.ts';

/*
 * What the line queue sends for one package, and what each answer means: the screen changes drafts
 * instantly (scans never wait for the network) and `flush` brings the station's line items to the
 * latest drafts, one request at a time. Ten edits of one unit while a request is in flight become
 * one PATCH to the final state, never ten racing increments. Whether a failed request is tried
 * again, and when, is the retry policy's (`#shared/api/retry-policy.ts`, run by the package outbox):
 * each flush goes on from what the station last confirmed.
 */

export interface LineItemApi {
  createLineItem(accountId: number, packageId: number, body: PackageLineItemCreateInput, o?: { idempotencyKey?: string }): Promise<PackageLineItem>;
  updateLineItem(accountId: number, packageId: number, lineItemId: number, body: PackageLineItemUpdate): Promise<PackageLineItem>;
  deleteLineItem(accountId: number, packageId: number, lineItemId: number): Promise<void>;
  confirmPut(accountId: number, packageId: number, lineItemId: number, body: PutConfirmation): Promise<PackageLineItem>;
}

export interface LineSyncEvents {
  /** After each change the station confirmed: what it now holds (kept so a reload resumes, not repeats). */
  onSaved?(saved: readonly SavedLine[]): void;
  /**
   * A create is about to be sent (or sent again): `creating` is every create not confirmed yet, each
   * with the draft as it was first sent (kept so a reload replays that very body).
   */
  onCreating?(creating: readonly CreatingLine[]): void;
  /**
   * The station refused to take a unit off (its label was made or its put confirmed, on another
   * terminal or through the API): the unit is back in the drafts, which are now `drafts`.
   */
  onKept?(drafts: readonly Draft[], unit: Draft, error: ApiError): void;
}

/** A draft as the station last confirmed it, with the id of its line item. */
export interface SavedLine {
  key: string;
  id: number;
  draft: Draft;
}

/**
 * A draft whose create was sent but not confirmed, as it was first sent. Its replay (the answer lost
 * when a handheld's Wi-Fi dropped) must send that very body under its Idempotency-Key: the station
 * answers a key reused with another body 409, and the worker may have changed the draft since (a
 * condition set while offline). What changed since goes after the create, as a PATCH.
 */
export interface CreatingLine {
  key: string;
  draft: Draft;
}

/** The station's check of a serial, and the serial it checked. */
export interface SavedSerialCheck {
  serial: string | null;
  check: SerialCheck | null;
}

interface Saved {
  id: number;
  draft: Draft;
}

const FIELDS = ['return_line_item_id', 'quantity', 'condition', 'defective', 'notes', 'barcode', 'tags', 'name', 'merchant_sku', 'serial'] as const;

/** The fields of `next` that differ from `prev`, as a PATCH body; null when nothing changed. */
export function draftDiff(prev: Draft, next: Draft): PackageLineItemUpdate | null {
  const body: Record<string, unknown> = {};
  for (const field of FIELDS) {
    // A draft kept by an older UI has no serial: none.
    const a = prev[field] ?? null;
    const b = next[field] ?? null;
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
    if (prev.disposition_source === 'override' && prev.disposition === next.disposition && prev.bin === next.bin && prev.override === next.override)
      return null;
    return {
      disposition: next.disposition,
      ...(next.bin !== null ? { bin: next.bin } : {}),
      disposition_reason: next.override.reason,
      ...(next.override.by !== null ? { disposition_by: next.override.by } : {}),
    };
  }
  return prev.disposition_source === 'override' ? { disposition: null } : null;
}

/** What the station holds right after a create: the rules' answer, no override, no put (those follow as their own steps). */
function asCreated(draft: Draft): Draft {
  return { ...draft, disposition_source: draft.disposition_source === 'override' ? null : draft.disposition_source, override: null, put_confirmed: false };
}

/**
 * What was saved: `sent` with the unit id the station gave the item (the label's barcode; a draft made
 * on the screen does not know it) and its check of the serial.
 */
const withUnitOf = (sent: Draft, item: PackageLineItem): Draft => ({
  ...sent,
  ...(sent.unit_id === null && item.unit_id ? { unit_id: item.unit_id } : {}),
  serial_check: item.serial_check ?? null,
});

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
  if (draft.serial != null) body.serial = draft.serial;
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
  /** Creates sent and not confirmed: the draft as first sent, by draft key. */
  readonly #creating = new Map<string, Draft>();
  #desired: readonly Draft[] = [];
  #flushing: Promise<void> | null = null;

  constructor(
    api: LineItemApi,
    accountId: number,
    packageId: number,
    loaded: readonly PackageLineItem[],
    drafts: readonly Draft[],
    events: LineSyncEvents = {},
  ) {
    this.#api = api;
    this.#accountId = accountId;
    this.#packageId = packageId;
    this.#events = events;
    for (const draft of drafts) {
      const item = loaded.find((i) => `li-${i.id}` === draft.key);
      if (item) this.#saved.set(draft.key, { id: item.id, draft });
    }
    this.#desired = drafts;
  }

  /** A sync that resumes where an earlier one stopped: `saved` is what the station confirmed then. */
  static resume(
    api: LineItemApi,
    accountId: number,
    packageId: number,
    saved: readonly SavedLine[],
    drafts: readonly Draft[],
    events: LineSyncEvents,
    creating: readonly CreatingLine[] = [],
  ): LineSync {
    const sync = new LineSync(api, accountId, packageId, [], drafts, events);
    for (const line of saved) sync.#saved.set(line.key, { id: line.id, draft: line.draft });
    for (const line of creating) if (!sync.#saved.has(line.key)) sync.#creating.set(line.key, line.draft);
    return sync;
  }

  /** What the station holds, as last confirmed. */
  get saved(): SavedLine[] {
    return [...this.#saved].map(([key, { id, draft }]) => ({ key, id, draft }));
  }

  /** Creates sent and not confirmed yet, as first sent. */
  get creating(): CreatingLine[] {
    return [...this.#creating].map(([key, draft]) => ({ key, draft }));
  }

  get drafts(): readonly Draft[] {
    return this.#desired;
  }

  /** The drafts to bring the station to (the latest call wins); sent by the next `flush`. */
  set(drafts: readonly Draft[]): void {
    this.#desired = drafts;
  }

  /**
   * Sends what the station lacks, one request at a time, until it holds the latest drafts (a change
   * made meanwhile goes too). Rejects with the first failure, the station's answer or its absence:
   * trying again is the caller's. A flush asked for while one runs is that one.
   */
  flush(): Promise<void> {
    this.#flushing ??= this.#sendAll().finally(() => {
      this.#flushing = null;
    });
    return this.#flushing;
  }

  async #sendAll(): Promise<void> {
    for (let step = this.#nextStep(); step !== null; step = this.#nextStep()) {
      await step();
      this.#events.onSaved?.(this.saved);
    }
  }

  /** The unit ids the station gave the drafts it created (by draft key). */
  unitIds(): Map<string, string> {
    const ids = new Map<string, string>();
    for (const [key, { draft }] of this.#saved) if (draft.unit_id !== null) ids.set(key, draft.unit_id);
    return ids;
  }

  /** The station's checks of the drafts' serials, as it last answered, with the serial each was of (by draft key). */
  serialChecks(): Map<string, SavedSerialCheck> {
    const checks = new Map<string, SavedSerialCheck>();
    for (const [key, { draft }] of this.#saved)
      if (draft.serial_check !== undefined) checks.set(key, { serial: draft.serial ?? null, check: draft.serial_check });
    return checks;
  }

  /**
   * What the station says of units it holds (a package event, a reload): a label made or a put
   * confirmed elsewhere holds the unit, here too. Such a unit taken off here but not yet deleted on
   * the station is put back (the station would refuse the DELETE). Returns the new drafts, or null
   * when nothing changed.
   */
  learn(items: readonly PackageLineItem[]): Draft[] | null {
    const byId = new Map(items.map((item) => [item.id, item]));
    const held = new Map<string, Draft>();
    for (const [key, saved] of this.#saved) {
      const item = byId.get(saved.id);
      if (!item) continue;
      const draft = heldBy(saved.draft, item);
      if (draft === saved.draft) continue;
      this.#saved.set(key, { id: saved.id, draft });
      held.set(key, draft);
    }
    if (held.size === 0) return null;
    let desired = this.#desired.map((d) => {
      const item = held.has(d.key) ? byId.get(this.#saved.get(d.key)?.id ?? -1) : undefined;
      return item ? heldBy(d, item) : d;
    });
    for (const [key, draft] of held) if (!desired.some((d) => d.key === key)) desired = this.#restored(desired, key, draft);
    this.#desired = desired;
    return desired;
  }

  /** `drafts` with the held unit `draft` back where it was among the saved ones. */
  #restored(drafts: readonly Draft[], key: string, draft: Draft): Draft[] {
    const savedKeys = [...this.#saved.keys()];
    const before = new Set(savedKeys.slice(0, savedKeys.indexOf(key)));
    let at = 0;
    drafts.forEach((d, i) => {
      if (before.has(d.key)) at = i + 1;
    });
    return [...drafts.slice(0, at), draft, ...drafts.slice(at)];
  }

  /** The server id of a draft, once created. */
  idOf(key: string): number | null {
    return this.#saved.get(key)?.id ?? null;
  }

  get pending(): boolean {
    return this.#nextStep() !== null;
  }

  #nextStep(): (() => Promise<void>) | null {
    const desiredKeys = new Set(this.#desired.map((d) => d.key));
    for (const [key, saved] of this.#saved) {
      if (!desiredKeys.has(key)) {
        return async () => {
          try {
            await this.#api.deleteLineItem(this.#accountId, this.#packageId, saved.id);
            this.#saved.delete(key);
          } catch (error) {
            if (!(error instanceof ApiError && error.errorCode === 'UNIT_LABELLED_OR_PUT')) throw error;
            // Labelled or put elsewhere before this terminal heard of it: the unit stays, on screen too.
            const kept: Draft = saved.draft.put_confirmed ? saved.draft : { ...saved.draft, labelled: true };
            this.#saved.set(key, { id: saved.id, draft: kept });
            this.#desired = this.#restored(this.#desired, key, kept);
            this.#events.onKept?.(this.#desired, kept, error);
          }
        };
      }
    }
    for (const draft of this.#desired) {
      const saved = this.#saved.get(draft.key);
      if (!saved) {
        return async () => {
          // A create sent before is sent again as it was; the draft's later changes follow as a PATCH.
          const sent = this.#creating.get(draft.key) ?? draft;
          if (!this.#creating.has(draft.key)) {
            this.#creating.set(draft.key, sent);
            this.#events.onCreating?.(this.creating);
          }
          let item: PackageLineItem;
          try {
            item = await this.#api.createLineItem(this.#accountId, this.#packageId, createBody(sent), {
              idempotencyKey: `pkg-${this.#packageId}-${draft.key}`,
            });
          } catch (error) {
            // Refused for good: the station stored nothing under the key, so the next try sends the draft as it is then.
            if (!worthRetrying(error)) {
              this.#creating.delete(draft.key);
              this.#events.onCreating?.(this.creating);
            }
            throw error;
          }
          this.#creating.delete(draft.key);
          this.#saved.set(draft.key, { id: item.id, draft: withUnitOf(asCreated(sent), item) });
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
          const item = await this.#api.confirmPut(this.#accountId, this.#packageId, saved.id, {
            bin,
            ...(draft.put_by != null ? { put_by: draft.put_by } : {}),
          });
          this.#saved.set(draft.key, { id: saved.id, draft: withUnitOf(draft, item) });
        };
      }
    }
    return null;
  }
}

/** `draft` as the station's `item` holds it: labelled, or put (with its bin and who); the same draft when neither is new. */
function heldBy(draft: Draft, item: PackageLineItem): Draft {
  const labelled = (item.labelled_at ?? null) !== null && draft.labelled !== true;
  const put = (item.put_confirmed_at ?? null) !== null && !draft.put_confirmed;
  if (!labelled && !put) return draft;
  return {
    ...draft,
    ...(labelled ? { labelled: true } : {}),
    ...(put ? { put_confirmed: true, put_by: item.put_by ?? null, bin: item.bin ?? draft.bin } : {}),
    unit_id: draft.unit_id ?? item.unit_id ?? null,
  };
}
