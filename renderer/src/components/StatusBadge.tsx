const LABEL: Record<string, string> = {
  pending: 'Pending',
  in_transit: 'In transit',
  delivered: 'Delivered — in progress',
  received: 'Received',
  exception: 'Exception',
  cancelled: 'Cancelled',
  awaiting: 'Awaiting',
  partially_received: 'Partially received',
};

/** A status in words and colour (never colour alone). */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge badge-${status}`} data-testid="status-badge">
      {LABEL[status] ?? status}
    </span>
  );
}
