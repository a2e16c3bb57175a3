import { useEffect } from 'react';
import type { ReturnPackage } from '#shared/api/return-packages.ts';
import type { ReturnRecord } from '#shared/api/returns.ts';
import { describeError } from '../api/describe-error.ts';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { syncStateOfEntry } from '../pending/package-outbox.ts';
import { lineRows, unexpectedDrafts } from '../inspect/drafts.ts';
import { addFiles, back, correctReceipt, receive, undo } from '../workflow/commands.ts';
import { LineTable } from './LineTable.tsx';
import { PhotoStrip } from './PhotoStrip.tsx';
import { SelectedItemPanel } from './SelectedItemPanel.tsx';
import { lockReasonOf } from './package-store.ts';
import { usePackage, usePending } from './page-package.ts';
import { useReceivedBy } from './received-by.ts';
import { WeighingPanel } from '../weighing/WeighingPanel.tsx';
import { HeldForReview } from '../review/HeldForReview.tsx';

const SYNC_LABEL = {
  saved: 'All changes saved on the station',
  saving: 'Saving…',
  retrying: 'Station unreachable — changes kept here, retrying',
  failed: 'Not saved',
} as const;

/** The package on the bench: its return, the expected lines against what was scanned, photos, receive. */
export function PackageScreen() {
  const current = usePackage((s) => s.current);
  const drafts = usePackage((s) => s.drafts);
  usePastedPhotos();

  if (!current) return null;
  const { pkg, ret } = current;
  const rows = lineRows(ret, drafts, pkg.status === 'received');
  const extra = unexpectedDrafts(ret, drafts);

  return (
    <section
      className="panel package"
      aria-labelledby="package-title"
      data-testid="package-view"
      data-package-id={pkg.id}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        addFiles(e.dataTransfer.files);
      }}
    >
      <div className="package-main">
        <PackageHead accountId={current.accountId} pkg={pkg} />
        {ret ? (
          <ReturnFacts ret={ret} />
        ) : (
          <p className="inline-error">The return #{pkg.return_id} of this package could not be loaded; scanned items are recorded as unexpected.</p>
        )}
        <PackageNotices pkg={pkg} />
        <WeighingPanel pkg={pkg} />
        <HeldForReview accountId={current.accountId} pkg={pkg} />
        <div className="lines-scroll">
          <LineTable rows={rows} extra={extra} />
        </div>
      </div>
      <div className="package-side">
        <div className="side-scroll">
          <SelectedItemPanel />
          <PhotoStrip pkg={pkg} />
        </div>
        <PackageActions />
      </div>
    </section>
  );
}

/** Photos pasted anywhere on the page go to the open package. */
function usePastedPhotos() {
  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      const files = event.clipboardData?.files;
      if (files && files.length > 0) {
        event.preventDefault();
        addFiles(files);
      }
    };
    window.addEventListener('paste', onPaste);
    return () => window.removeEventListener('paste', onPaste);
  }, []);
}

/** Tracking number, status, and whether the station has every change yet. */
function PackageHead({ accountId, pkg }: { accountId: number; pkg: ReturnPackage }) {
  // The outbox's own state of this package, as its queue lists it: the screen keeps no copy.
  const entry = usePending((s) => s.entries.find((e) => e.accountId === accountId && e.packageId === pkg.id));
  const sync = syncStateOfEntry(entry);
  const syncError = sync === 'failed' && entry?.error != null ? describeError(entry.error) : null;
  return (
    <div className="package-head">
      <h2 id="package-title">
        Package{' '}
        <span className="mono" data-testid="tracking-number">
          {pkg.tracking_number}
        </span>
      </h2>
      <StatusBadge status={pkg.status} />
      <span className={`sync sync-${sync}`} data-testid="sync-state" role="status">
        {SYNC_LABEL[sync]}
        {syncError ? `: ${syncError}` : ''}
      </span>
    </div>
  );
}

function ReturnFacts({ ret }: { ret: ReturnRecord }) {
  return (
    <dl className="return-facts">
      <div>
        <dt>Customer</dt>
        <dd data-testid="customer">{ret.email}</dd>
      </div>
      <div>
        <dt>Reason</dt>
        <dd>{ret.reason_of_return}</dd>
      </div>
      <div>
        <dt>Receive by</dt>
        <dd>{ret.receive_by}</dd>
      </div>
      <div>
        <dt>Return</dt>
        <dd>
          #{ret.id} · account {ret.account_id} · {ret.status.replace('_', ' ')}
        </dd>
      </div>
    </dl>
  );
}

/** What the worker must know before touching the package: why it is locked, a correction, the exception rule, the last error. */
function PackageNotices({ pkg }: { pkg: ReturnPackage }) {
  const error = usePackage((s) => s.error);
  const correctingBy = usePackage((s) => s.correctingBy);
  const current = usePackage((s) => s.current);
  const receivedBy = useReceivedBy(current?.accountId ?? null, current?.pkg ?? null);
  const lockReason = usePackage((s) => lockReasonOf(s, receivedBy));
  return (
    <>
      {lockReason && (
        <p className={pkg.status === 'cancelled' ? 'inline-error' : 'inline-warning'} role="status" data-testid="package-locked" data-status={pkg.status}>
          {lockReason}
        </p>
      )}
      {correctingBy && (
        <p className="inline-warning" role="status" data-testid="correcting-receipt">
          Correcting the receipt: every change is recorded as made by {correctingBy.name}. F2 when done.
        </p>
      )}
      {pkg.status === 'exception' && (
        <p className="inline-warning" role="status" data-testid="exception-rule">
          Exception: scan what the parcel holds and set every item&apos;s condition, then press F2 twice to receive it.
        </p>
      )}
      {error && (
        <p className="inline-error" role="alert" data-testid="package-error">
          {error}
        </p>
      )}
    </>
  );
}

function PackageActions() {
  const receiving = usePackage((s) => s.receiving);
  const canUndo = usePackage((s) => s.undoStack.length > 0);
  // A received package offers its correction, a cancelled one nothing: neither is received again.
  const status = usePackage((s) => (lockReasonOf(s) === null ? 'open' : s.current?.pkg.status));
  return (
    <div className="actions">
      {status === 'open' && (
        <button type="button" className="btn btn-receive" data-testid="receive" disabled={receiving} onClick={() => void receive()}>
          {receiving ? 'Receiving…' : 'Receive package'} <kbd>F2</kbd>
        </button>
      )}
      {status === 'received' && (
        <button type="button" className="btn btn-secondary" data-testid="correct-receipt" onClick={correctReceipt}>
          Correct receipt <kbd>F7</kbd>
        </button>
      )}
      <button type="button" className="btn btn-secondary" disabled={!canUndo} onClick={undo}>
        Undo <kbd>F8</kbd>
      </button>
      <button type="button" className="btn btn-secondary" onClick={back}>
        Back to scanning <kbd>Esc</kbd>
      </button>
    </div>
  );
}
