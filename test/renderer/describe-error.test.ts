import { expect, it } from 'vitest';
import { ApiError } from '#shared/api/client.ts';
import { describeError } from '../../renderer/src/api/describe-error.ts';

it('tells the dock plainly that the disk or the photo storage is full, and what to do', () => {
  const full = describeError(new ApiError(503, 'UNAVAILABLE', { message: 'x', reason: 'disk_full' }));
  expect(full).toMatch(/disk is full — nothing was saved/);
  expect(full).toMatch(/supervisor/);
  expect(describeError(new ApiError(503, 'UNAVAILABLE', { message: 'x', reason: 'media_budget_reached' }))).toMatch(/photo storage is full/);
  expect(describeError(new ApiError(503, 'UNAVAILABLE', { message: 'The station is shutting down.' }))).toMatch(/Try again/);
});
