/*
 * The return package status machine (docs/api-reference.md, Return packages), as data.
 *
 *   (create)   → pending, in_transit (default), delivered, received
 *   pending    → in_transit, delivered, received, exception, cancelled
 *   in_transit → delivered, received, exception, cancelled
 *   delivered  → received, exception
 *   exception  → in_transit, delivered, received, cancelled
 *   received   → (terminal; notes, line items and media may still change)
 *   cancelled  → (terminal)
 *
 * A PATCH to the current status is not a move and is always allowed.
 */

export const PACKAGE_STATUSES = ['pending', 'in_transit', 'delivered', 'received', 'exception', 'cancelled'] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];

/** Statuses a package may be created with. */
export const CREATE_STATUSES = ['pending', 'in_transit', 'delivered', 'received'] as const;
export type CreateStatus = (typeof CREATE_STATUSES)[number];
export const DEFAULT_CREATE_STATUS: CreateStatus = 'in_transit';

export const PACKAGE_TRANSITIONS: Readonly<Record<PackageStatus, readonly PackageStatus[]>> = {
  pending: ['in_transit', 'delivered', 'received', 'exception', 'cancelled'],
  in_transit: ['delivered', 'received', 'exception', 'cancelled'],
  delivered: ['received', 'exception'],
  exception: ['in_transit', 'delivered', 'received', 'cancelled'],
  received: [],
  cancelled: [],
};

export const TERMINAL_STATUSES: readonly PackageStatus[] = PACKAGE_STATUSES.filter((s) => PACKAGE_TRANSITIONS[s].length === 0);

export function isPackageStatus(value: unknown): value is PackageStatus {
  return typeof value === 'string' && (PACKAGE_STATUSES as readonly string[]).includes(value);
}

export function isCreateStatus(value: unknown): value is CreateStatus {
  return typeof value === 'string' && (CREATE_STATUSES as readonly string[]).includes(value);
}

/** The statuses `from` may move to (the current status itself is not listed: it is not a move). */
export function allowedMoves(from: PackageStatus): readonly PackageStatus[] {
  return PACKAGE_TRANSITIONS[from];
}

/** Whether a PATCH may set `to` on a package in `from`; staying in the same status is allowed. */
export function canMove(from: PackageStatus, to: PackageStatus): boolean {
  return from === to || PACKAGE_TRANSITIONS[from].includes(to);
}
