import type { ApiError } from '#shared/api/client.ts';
import type { ReturnPackage, ReturnPackageUpdate } from '#shared/api/return-packages.ts';
import { DOCK_RETRY, type RetryPolicy, untilLanded } from '#shared/api/retry-policy.ts';
import { type Draft, draftFromLineItem } from '../inspect/drafts.ts';
import { type LineItemApi, LineSync, type LineSyncEvents, type SavedSerialCheck } from '../inspect/line-sync.ts';
import type { PendingDb, PendingPackage, ReceiveIntent } from './pending-db.ts';
import { pendingKey } from './pending-key.ts';

/*
 * Sends the worker's packages to the station, one package at a time in the order their work began:
 * first the package's line items (LineSync), then its receive (F2). What is not confirmed yet is kept
 * in IndexedDB (PendingDb) after every change and replayed from there after a reload, so a scan made
 * while the station is unreachable is recorded exactly once: creates carry an Idempotency-Key, and
 * each confirmed step is written back before the next.
 *
 * The screen never waits for this queue: F2 waits only until the receive lands or the station proves
 * unreachable, then the package shows as pending ("Receiving…") and the worker opens the next parcel.
 * A failed request is tried again as the one retry policy says (`#shared/api/retry-policy.ts`); this
 * queue holds the only state of a package's sending. See docs/decisions/ui-outbox.md.
 */

export interface OutboxApi extends LineItemApi {
  updatePackage(accountId: number, packageId: number, body: ReturnPackageUpdate): Promise<unknown>;
  getPackage(accountId: number, packageId: number): Promise<ReturnPackage>;
}

/** queued: behind another package · sending · retrying: the station is unreachable or busy · failed: refused. */
export type PendingState = 'queued' | 'sending' | 'retrying' | 'failed';

/** How the package on screen stands with the station: all saved, being sent, waiting to retry, or refused. */
export type SyncState = 'saved' | 'saving' | 'retrying' | 'failed';

/** The save state a package's screen shows, from its entry in the queue (none: nothing waits). */
export function syncStateOfEntry(entry: PendingEntry | undefined): SyncState {
  if (!entry) return 'saved';
  return entry.state === 'failed' || entry.state === 'retrying' ? entry.state : 'saving';
}

export interface PendingEntry {
  key: string;
  accountId: number;
  packageId: number;
  trackingNumber: string;
  state: PendingState;
  /** F2 was pressed: the package is received once this entry is gone. */
  receiving: boolean;
  units: number;
  /** The station's refusal (failed) or the last network error (retrying). */
  error: unknown;
}

/** How an F2 ended for the screen: received now, or pending (the station cannot be reached yet). */
export type ReceiveOutcome = { kind: 'received'; pkg: ReturnPackage } | { kind: 'pending' };

export interface OutboxEvents {
  onChange(entries: readonly PendingEntry[]): void;
  /** A receive the screen already showed as pending has landed (also one replayed after a reload). */
  onLateReceived(entry: PendingEntry, pkg: ReturnPackage): void;
  /** Work the screen already showed as pending was refused by the station (kept, marked failed). */
  onLateRefused(entry: PendingEntry, error: unknown): void;
  /** The station refused to take `unit` off (labelled or put elsewhere): it is back, and the package's drafts are `drafts`. */
  onKept?(accountId: number, packageId: number, drafts: readonly Draft[], unit: Draft, error: ApiError): void;
}

export interface OutboxOptions {
  api: OutboxApi;
  /** The queue's database; a promise lets the page load Dexie after its first screen. */
  db: PendingDb | Promise<PendingDb>;
  events: OutboxEvents;
  /** When a failed request is tried again (the dock's policy by default). */
  retry?: RetryPolicy;
  /** An F2 not answered within this time is shown as pending too (a station that hangs, not refuses). */
  pendingAfterMs?: number;
}

interface Sender {
  record: PendingPackage;
  sync: LineSync;
  state: PendingState | 'saved';
  error: unknown;
  /** Whether `record` is in the database. */
  stored: boolean;
  /** The F2 waiting to hear how its receive went. */
  waiter: { resolve(outcome: ReceiveOutcome): void; reject(error: unknown): void } | null;
  /** The screen was told this package's work is pending: its outcome is announced when it comes. */
  announceLater: boolean;
}

const unitsOf = (drafts: readonly Draft[]) => drafts.reduce((sum, d) => sum + d.quantity, 0);

export class PackageOutbox {
  readonly #options: OutboxOptions;
  readonly #senders = new Map<string, Sender>();
  #lastSeq = 0;
  #draining: Promise<void> | null = null;
  /** Resolves once the queue left by an earlier page is loaded (see `restore`). */
  ready: Promise<void> = Promise.resolve();

  constructor(options: OutboxOptions) {
    this.#options = options;
  }

  /** Loads the work an earlier page left unsent and starts sending it, oldest first. */
  restore(): Promise<void> {
    this.ready = (async () => {
      let records: PendingPackage[];
      try {
        const db = await this.#options.db;
        records = await db.packages.orderBy('seq').toArray();
      } catch {
        // No IndexedDB (a locked-down profile): the queue still works, for this page's life only.
        return;
      }
      for (const record of records) {
        if (this.#senders.has(record.key)) continue;
        this.#lastSeq = Math.max(this.#lastSeq, record.seq);
        const sender = this.#newSender(record, (events) =>
          LineSync.resume(this.#options.api, record.accountId, record.packageId, record.saved, record.drafts, events, record.creating),
        );
        sender.stored = true;
        sender.announceLater = true;
      }
      this.#emit();
      this.#drain();
    })();
    return this.ready;
  }

  /** The drafts to show for a package opened on the bench: its unsent drafts win over the station's. */
  open(accountId: number, pkg: ReturnPackage): Draft[] {
    const key = pendingKey(accountId, pkg.id);
    const existing = this.#senders.get(key);
    if (existing) return [...existing.sync.drafts];
    const drafts = pkg.line_items.map(draftFromLineItem);
    const record: PendingPackage = { key, seq: 0, accountId, packageId: pkg.id, trackingNumber: pkg.tracking_number, saved: [], drafts, receive: null };
    this.#newSender(record, (events) => new LineSync(this.#options.api, accountId, pkg.id, pkg.line_items, drafts, events));
    return drafts;
  }

  /** The worker changed the drafts of an opened package. */
  change(accountId: number, packageId: number, drafts: readonly Draft[]): void {
    const sender = this.#sender(accountId, packageId);
    sender.sync.set(drafts);
    sender.record.drafts = [...drafts];
    if (sender.state === 'failed') sender.state = 'queued';
    this.#persist(sender);
    this.#emit();
    this.#drain();
  }

  /** F2: queues the receive; resolves when it landed, or as soon as the station proves unreachable. Rejects with a refusal. */
  receive(accountId: number, packageId: number, intent: ReceiveIntent): Promise<ReceiveOutcome> {
    const sender = this.#sender(accountId, packageId);
    sender.record.receive = intent;
    sender.announceLater = false;
    if (sender.state === 'failed' || sender.state === 'saved') sender.state = 'queued';
    const outcome = new Promise<ReceiveOutcome>((resolve, reject) => {
      sender.waiter = { resolve, reject };
    });
    const waiter = sender.waiter;
    setTimeout(() => {
      if (sender.waiter === waiter) this.#nowPending(sender);
    }, this.#options.pendingAfterMs ?? 3000);
    this.#persist(sender);
    // Another package already waits for an unreachable station: this one waits behind it.
    if ([...this.#senders.values()].some((s) => s !== sender && s.state === 'retrying')) this.#nowPending(sender);
    this.#emit();
    this.#drain();
    return outcome;
  }

  /** Whether the package's receive (F2) is waiting to be sent: it is not opened again meanwhile. */
  isReceiving(accountId: number, packageId: number): boolean {
    return this.#senders.get(pendingKey(accountId, packageId))?.record.receive != null;
  }

  /** The save state of one package's inspection, for its screen. */
  syncStateOf(accountId: number, packageId: number): { state: SyncState; error: unknown } {
    const sender = this.#senders.get(pendingKey(accountId, packageId));
    const entry = sender && this.#hasWork(sender) ? this.#entryOf(sender) : undefined;
    return { state: syncStateOfEntry(entry), error: entry?.error ?? null };
  }

  /**
   * What the station now says of a package being worked on (its event): units labelled or put
   * elsewhere are held here too, and one taken off here but still on the station is put back.
   * Returns the package's new drafts, or null when nothing changed (or it is not being worked on).
   */
  learn(accountId: number, pkg: ReturnPackage): Draft[] | null {
    const sender = this.#senders.get(pendingKey(accountId, pkg.id));
    const drafts = sender?.sync.learn(pkg.line_items) ?? null;
    if (!sender || !drafts) return null;
    sender.record.drafts = [...drafts];
    sender.record.saved = sender.sync.saved;
    this.#persist(sender);
    this.#emit();
    return drafts;
  }

  /** The unit ids the station gave this package's new items, by draft key (for labels before a reopen). */
  unitIdsOf(accountId: number, packageId: number): Map<string, string> {
    return this.#senders.get(pendingKey(accountId, packageId))?.sync.unitIds() ?? new Map();
  }

  /** The station's checks of this package's serials, by draft key (a duplicate is said at once). */
  serialChecksOf(accountId: number, packageId: number): Map<string, SavedSerialCheck> {
    return this.#senders.get(pendingKey(accountId, packageId))?.sync.serialChecks() ?? new Map();
  }

  /** The line item the station made for a draft of this package, once it has. */
  lineItemIdOf(accountId: number, packageId: number, draftKey: string): number | null {
    return this.#senders.get(pendingKey(accountId, packageId))?.sync.idOf(draftKey) ?? null;
  }

  /** Packages with unsent work, in the order they are sent. */
  get entries(): PendingEntry[] {
    return [...this.#senders.values()]
      .filter((s) => this.#hasWork(s))
      .sort((a, b) => a.record.seq - b.record.seq)
      .map((s) => this.#entryOf(s));
  }

  /** Resolves once nothing is left to send (or only refused work is). */
  async idle(): Promise<void> {
    await this.ready;
    while (this.#draining) await this.#draining;
  }

  #newSender(record: PendingPackage, makeSync: (events: LineSyncEvents) => LineSync): Sender {
    const sender: Sender = { record, sync: null as unknown as LineSync, state: 'saved', error: null, stored: false, waiter: null, announceLater: false };
    sender.sync = makeSync({
      onSaved: (saved) => {
        sender.record.saved = [...saved];
        sender.record.creating = sender.sync.creating;
        this.#persist(sender);
        // A step landed: the station answers again, the rest is being sent.
        if (sender.state === 'retrying') {
          sender.state = 'sending';
          this.#emit();
        }
      },
      // Kept before the create goes out: a reload replays the body the station may already hold.
      onCreating: (creating) => {
        sender.record.creating = [...creating];
        this.#persist(sender);
      },
      onKept: (drafts, unit, error) => {
        sender.record.drafts = [...drafts];
        sender.record.saved = sender.sync.saved;
        this.#persist(sender);
        this.#options.events.onKept?.(record.accountId, record.packageId, drafts, unit, error);
      },
    });
    this.#senders.set(record.key, sender);
    return sender;
  }

  #sender(accountId: number, packageId: number): Sender {
    const sender = this.#senders.get(pendingKey(accountId, packageId));
    if (!sender) throw new Error(`Package ${packageId} was not opened.`);
    return sender;
  }

  #hasWork(sender: Sender): boolean {
    return sender.record.receive !== null || sender.sync.pending || (sender.state === 'failed' && sender.stored);
  }

  #entryOf(sender: Sender): PendingEntry {
    const { key, accountId, packageId, trackingNumber, receive, drafts } = sender.record;
    const state = sender.state === 'saved' ? 'queued' : sender.state;
    return { key, accountId, packageId, trackingNumber, state, receiving: receive !== null, units: receive?.units ?? unitsOf(drafts), error: sender.error };
  }

  /** Writes the package's unsent work, or deletes its record once there is none. */
  #persist(sender: Sender): void {
    // Writes are issued in call order (callbacks of one promise run in order; IndexedDB keeps it).
    const db = Promise.resolve(this.#options.db);
    if (this.#hasWork(sender)) {
      if (!sender.stored) sender.record.seq = this.#lastSeq = Math.max(Date.now(), this.#lastSeq + 1);
      sender.stored = true;
      const record = structuredClone(sender.record);
      void db.then((d) => d.packages.put(record)).catch(() => undefined);
    } else if (sender.stored) {
      sender.stored = false;
      const key = sender.record.key;
      void db.then((d) => d.packages.delete(key)).catch(() => undefined);
    }
  }

  #emit(): void {
    this.#options.events.onChange(this.entries);
  }

  /** The station cannot be reached: every F2 still waiting is told its package is pending. */
  #stationUnreachable(): void {
    for (const sender of this.#senders.values()) if (sender.waiter) this.#nowPending(sender);
  }

  #nowPending(sender: Sender): void {
    sender.waiter?.resolve({ kind: 'pending' });
    sender.waiter = null;
    sender.announceLater = true;
  }

  #drain(): void {
    if (this.#draining) return;
    this.#draining = (async () => {
      for (;;) {
        const next = [...this.#senders.values()].filter((s) => s.state !== 'failed' && this.#hasWork(s)).sort((a, b) => a.record.seq - b.record.seq)[0];
        if (!next) return;
        await this.#send(next);
      }
    })().finally(() => {
      this.#draining = null;
      // A change made while this drain was ending (it had found nothing to send) is not left waiting
      // for the next one: several undos in one turn, the first of which matched what was saved.
      if ([...this.#senders.values()].some((s) => s.state !== 'failed' && this.#hasWork(s))) this.#drain();
    });
  }

  /** Sends `send` until it lands, the package shown as retrying meanwhile; rejects with the station's refusal. */
  #untilLanded<T>(sender: Sender, send: () => Promise<T>): Promise<T> {
    sender.state = 'sending';
    this.#emit();
    return untilLanded(send, this.#options.retry ?? DOCK_RETRY, {
      onRetry: (error) => {
        sender.state = 'retrying';
        sender.error = error;
        this.#stationUnreachable();
        this.#emit();
      },
    });
  }

  async #send(sender: Sender): Promise<void> {
    try {
      // Each try sends what the drafts want by then: a change made while the station was away goes too.
      await this.#untilLanded(sender, () => sender.sync.flush());
    } catch (error) {
      // A line the station refuses: the receive cannot go ahead either; the drafts stay for the worker.
      sender.record.receive = null;
      return this.#refused(sender, error);
    }
    sender.record.saved = sender.sync.saved;
    if (sender.record.receive === null) {
      sender.state = 'saved';
      sender.error = null;
      this.#persist(sender);
      this.#emit();
      return;
    }
    await this.#sendReceive(sender, sender.record.receive);
  }

  async #sendReceive(sender: Sender, intent: ReceiveIntent): Promise<void> {
    const { api } = this.#options;
    const { accountId, packageId } = sender.record;
    try {
      const pkg = await this.#untilLanded(sender, async () => {
        // A correction keeps who received the package and when; its changed items say who corrected them.
        if (!intent.correcting) await api.updatePackage(accountId, packageId, { status: 'received', processor_id: intent.operatorId });
        return api.getPackage(accountId, packageId);
      });
      return this.#received(sender, pkg);
    } catch (error) {
      // The station may have taken an earlier attempt and lost only its answer: ask before failing.
      const now = await api.getPackage(accountId, packageId).catch(() => null);
      if (now?.status === 'received' && now.processor_id === intent.operatorId && !intent.correcting) return this.#received(sender, now);
      sender.record.receive = null;
      return this.#refused(sender, error);
    }
  }

  #received(sender: Sender, pkg: ReturnPackage): void {
    const entry = this.#entryOf(sender);
    sender.record.receive = null;
    sender.state = 'saved';
    sender.error = null;
    this.#persist(sender);
    this.#senders.delete(sender.record.key);
    this.#emit();
    if (sender.waiter) sender.waiter.resolve({ kind: 'received', pkg });
    else if (sender.announceLater) this.#options.events.onLateReceived(entry, pkg);
    sender.waiter = null;
  }

  #refused(sender: Sender, error: unknown): void {
    sender.state = 'failed';
    sender.error = error;
    this.#persist(sender);
    this.#emit();
    if (sender.waiter) sender.waiter.reject(error);
    else if (sender.announceLater) this.#options.events.onLateRefused(this.#entryOf(sender), error);
    sender.waiter = null;
  }
}
