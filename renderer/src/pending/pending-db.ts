import Dexie, { type DexieOptions, type Table } from 'dexie';
import type { Draft } from '../inspect/drafts.ts';
import type { CreatingLine, SavedLine } from '../inspect/line-sync.ts';
import type { KeptUpload } from '../media/upload-queue.ts';

/*
 * The UI's queue of unsent work, in the browser's own IndexedDB (this page's origin): one record per
 * package with changes the station has not confirmed yet. It outlives a reload, a closed tab and a
 * station restart; a record is deleted once the station holds everything in it.
 */

/** A receive the worker asked for (F2) that the station has not confirmed yet. */
export interface ReceiveIntent {
  operatorId: number;
  /** A "Correct receipt" of a received package: only the items change, the status stays. */
  correcting: boolean;
  /** Units inspected when F2 was pressed: what the "Received" notice says. */
  units: number;
}

export interface PendingPackage {
  /** `${accountId}/${packageId}` */
  key: string;
  /** Queue order: when the package first had unsent work. Replayed lowest first. */
  seq: number;
  accountId: number;
  packageId: number;
  trackingNumber: string;
  /** What the station confirmed so far (so a replay resumes instead of creating items twice). */
  saved: SavedLine[];
  /** What the worker wants the station to hold. */
  drafts: Draft[];
  /** Creates sent and not confirmed, as first sent (a replay sends the same body); absent in records of older pages. */
  creating?: CreatingLine[];
  receive: ReceiveIntent | null;
}

/** A photo (or video, PDF) not yet stored on the station. */
export interface PendingUpload extends KeptUpload {
  /** Upload order. */
  seq: number;
}

export const PENDING_DB_NAME = 'returns-station-pending';

export class PendingDb extends Dexie {
  declare packages: Table<PendingPackage, string>;
  declare uploads: Table<PendingUpload, string>;

  /** `options` lets tests hand in an IndexedDB implementation (the browser's is the default). */
  constructor(name: string = PENDING_DB_NAME, options?: DexieOptions) {
    super(name, options);
    this.version(1).stores({ packages: '&key, seq' });
    this.version(2).stores({ uploads: '&id, seq' });
  }
}
