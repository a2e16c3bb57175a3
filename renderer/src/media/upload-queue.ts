import { ApiError } from '#shared/api/client.ts';
import type { MediaFile } from '#shared/api/media.ts';
import { DOCK_RETRY, type RetryPolicy, untilLanded } from '#shared/api/retry-policy.ts';

/*
 * Photos upload in the background, one at a time, retrying until they land (as the one retry policy
 * says, `#shared/api/retry-policy.ts`): the worker sees the thumbnail at once and keeps scanning. Each
 * upload carries its own Idempotency-Key, so a retry after a lost answer never stores the photo twice.
 * Only a refusal that no retry can fix (wrong type, too large, package gone) stops an upload, and it
 * stays on screen marked as failed. Each carries the time
 * it was taken, so a photo sent late keeps it; a time the station will not take (a terminal clock far
 * off) is dropped rather than the photo.
 */

export type UploadState = 'queued' | 'uploading' | 'retrying' | 'done' | 'failed';

export interface Upload {
  id: string;
  accountId: number;
  packageId: number;
  blob: Blob;
  contentType: string;
  /** When the worker took (or added) it, sent as `captured_at`; null once the station refused the time. */
  capturedAt: string | null;
  state: UploadState;
  attempts: number;
  media: MediaFile | null;
  error: string | null;
}

export interface MediaApi {
  uploadMedia(accountId: number, packageId: number, file: Blob, o: { contentType?: string; idempotencyKey?: string; capturedAt?: string }): Promise<MediaFile>;
}

/** An upload as kept across a reload: enough to send it again (one kept by an older page has no capture time). */
export type KeptUpload = Pick<Upload, 'id' | 'accountId' | 'packageId' | 'blob' | 'contentType'> & Partial<Pick<Upload, 'capturedAt'>>;

/** Where uploads not yet stored on the station are kept (the browser's IndexedDB), so a reload resumes them. */
export interface UploadKeeper {
  put(upload: KeptUpload): void;
  remove(id: string): void;
}

export interface UploadQueueOptions {
  api: MediaApi;
  onChange(uploads: readonly Upload[]): void;
  keeper?: UploadKeeper;
  /** When a failed upload is tried again (the dock's policy by default). */
  retry?: RetryPolicy;
  sleep?: (ms: number) => Promise<void>;
  /** The capture time of a photo added now (the browser's clock by default). */
  now?: () => Date;
}

export class UploadQueue {
  readonly #options: UploadQueueOptions;
  #uploads: Upload[] = [];
  #running = false;
  /** Withdraws the upload being sent (an undo): no further try. */
  #sending: { id: string; withdraw: AbortController } | null = null;

  constructor(options: UploadQueueOptions) {
    this.#options = options;
  }

  get uploads(): readonly Upload[] {
    return this.#uploads;
  }

  add(accountId: number, packageId: number, blob: Blob, contentType = blob.type || 'image/jpeg'): Upload {
    const capturedAt = (this.#options.now?.() ?? new Date()).toISOString();
    const upload: Upload = {
      id: crypto.randomUUID(),
      accountId,
      packageId,
      blob,
      contentType,
      capturedAt,
      state: 'queued',
      attempts: 0,
      media: null,
      error: null,
    };
    this.#uploads = [...this.#uploads, upload];
    this.#options.keeper?.put({ id: upload.id, accountId, packageId, blob, contentType, capturedAt });
    this.#emit();
    void this.#run();
    return upload;
  }

  /** Sends again the uploads an earlier page kept (each with its own Idempotency-Key, so never twice). */
  resume(kept: readonly KeptUpload[]): void {
    const known = new Set(this.#uploads.map((u) => u.id));
    const fresh = kept
      .filter((k) => !known.has(k.id))
      .map((k): Upload => ({ ...k, capturedAt: k.capturedAt ?? null, state: 'queued', attempts: 0, media: null, error: null }));
    if (fresh.length === 0) return;
    this.#uploads = [...this.#uploads, ...fresh];
    this.#emit();
    void this.#run();
  }

  /** Forgets an upload (undo of a photo); the caller deletes the stored file when there is one. */
  remove(id: string): Upload | null {
    const found = this.#uploads.find((u) => u.id === id) ?? null;
    if (this.#sending?.id === id) this.#sending.withdraw.abort();
    this.#uploads = this.#uploads.filter((u) => u.id !== id);
    this.#options.keeper?.remove(id);
    this.#emit();
    return found;
  }

  /** Resolves when nothing is queued or retrying. */
  async idle(): Promise<void> {
    while (this.#uploads.some((u) => u.state === 'queued' || u.state === 'uploading' || u.state === 'retrying')) {
      await (this.#options.sleep ?? defaultSleep)(50);
    }
  }

  #patch(id: string, change: Partial<Upload>): void {
    this.#uploads = this.#uploads.map((u) => (u.id === id ? { ...u, ...change } : u));
    // Stored on the station, or refused for good: nothing left to send after a reload.
    if (change.state === 'done' || change.state === 'failed') this.#options.keeper?.remove(id);
    this.#emit();
  }

  #emit(): void {
    this.#options.onChange(this.#uploads);
  }

  async #run(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      for (;;) {
        const next = this.#uploads.find((u) => u.state === 'queued' || u.state === 'retrying');
        if (!next) return;
        await this.#send(next);
      }
    } finally {
      this.#running = false;
    }
  }

  /** Sends one upload until it is stored, refused or withdrawn. */
  async #send(upload: Upload): Promise<void> {
    const withdraw = new AbortController();
    this.#sending = { id: upload.id, withdraw };
    const { capturedAt } = upload;
    let { attempts } = upload;
    try {
      const media = await untilLanded(
        () => {
          this.#patch(upload.id, { state: 'uploading', attempts: ++attempts });
          return this.#options.api.uploadMedia(upload.accountId, upload.packageId, upload.blob, {
            contentType: upload.contentType,
            idempotencyKey: `upload-${upload.id}`,
            ...(capturedAt === null ? {} : { capturedAt }),
          });
        },
        this.#options.retry ?? DOCK_RETRY,
        {
          signal: withdraw.signal,
          onRetry: (error) => this.#patch(upload.id, { state: 'retrying', error: error instanceof Error ? error.message : String(error) }),
        },
      );
      this.#patch(upload.id, { state: 'done', media, error: null });
    } catch (error) {
      if (withdraw.signal.aborted) return;
      if (refusedCaptureTime(error) && capturedAt !== null) {
        // The photo matters more than its time: send it again without one (the same key: nothing was stored).
        this.#patch(upload.id, { state: 'queued', capturedAt: null });
        return;
      }
      this.#patch(upload.id, { state: 'failed', error: error instanceof Error ? error.message : String(error) });
    } finally {
      this.#sending = null;
    }
  }
}

function refusedCaptureTime(error: unknown): boolean {
  return error instanceof ApiError && error.errorCode === 'VALIDATION_FAILED' && (error.details.fields ?? []).some((field) => field.path === 'captured_at');
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
