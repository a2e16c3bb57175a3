import { describe, expect, it } from 'vitest';
import {
  CREATE_STATUSES,
  PACKAGE_STATUSES,
  TERMINAL_STATUSES,
  allowedMoves,
  canMove,
  isCreateStatus,
  isPackageStatus,
  type PackageStatus,
} from '../../shared/package-status.ts';

// Contract section 6, written out as pairs.
const ALLOWED: [PackageStatus, PackageStatus][] = [
  ['pending', 'in_transit'],
  ['pending', 'delivered'],
  ['pending', 'received'],
  ['pending', 'exception'],
  ['pending', 'cancelled'],
  ['in_transit', 'delivered'],
  ['in_transit', 'received'],
  ['in_transit', 'exception'],
  ['in_transit', 'cancelled'],
  ['delivered', 'received'],
  ['delivered', 'exception'],
  ['exception', 'in_transit'],
  ['exception', 'delivered'],
  ['exception', 'received'],
  ['exception', 'cancelled'],
];

describe('package status machine', () => {
  it.each(ALLOWED)('%s → %s is allowed', (from, to) => {
    expect(canMove(from, to)).toBe(true);
    expect(allowedMoves(from)).toContain(to);
  });

  const disallowed = PACKAGE_STATUSES.flatMap((from) =>
    PACKAGE_STATUSES.filter((to) => to !== from && !ALLOWED.some(([f, t]) => f === from && t === to)).map((to) => [from, to] as [PackageStatus, PackageStatus]),
  );
  it('has disallowed moves to check', () => {
    expect(disallowed).toContainEqual(['received', 'pending']);
    expect(disallowed).toContainEqual(['delivered', 'in_transit']);
    expect(disallowed).toContainEqual(['cancelled', 'in_transit']);
    expect(disallowed).toHaveLength(PACKAGE_STATUSES.length * (PACKAGE_STATUSES.length - 1) - ALLOWED.length);
  });
  it.each(disallowed)('%s → %s is refused', (from, to) => {
    expect(canMove(from, to)).toBe(false);
    expect(allowedMoves(from)).not.toContain(to);
  });

  it.each([...PACKAGE_STATUSES])('a PATCH to the current status %s is allowed', (status) => {
    expect(canMove(status, status)).toBe(true);
  });

  it('received and cancelled are terminal', () => {
    expect([...TERMINAL_STATUSES].sort()).toEqual(['cancelled', 'received']);
  });

  it('create statuses', () => {
    expect([...CREATE_STATUSES].sort()).toEqual(['delivered', 'in_transit', 'pending', 'received']);
    expect(isCreateStatus('exception')).toBe(false);
    expect(isCreateStatus('pending')).toBe(true);
    expect(isPackageStatus('lost')).toBe(false);
    expect(isPackageStatus(3)).toBe(false);
  });
});
