import { expect, it } from 'vitest';
import { ApiError } from '#shared/api/client.ts';
import { describeError } from '../../renderer/src/api/describe-error.ts';
import { markPairedHandheld } from '../../renderer/src/pairing/paired-device.ts';

it('tells the dock plainly that the disk or the photo storage is full, and what to do', () => {
  const full = describeError(new ApiError(503, 'UNAVAILABLE', { message: 'x', reason: 'disk_full' }));
  expect(full).toMatch(/disk is full — nothing was saved/);
  expect(full).toMatch(/supervisor/);
  expect(describeError(new ApiError(503, 'UNAVAILABLE', { message: 'x', reason: 'media_budget_reached' }))).toMatch(/photo storage is full/);
  expect(describeError(new ApiError(503, 'UNAVAILABLE', { message: 'The station is shutting down.' }))).toMatch(/Try again/);
});

it('tells a paired handheld whose token the station refuses that its pairing was revoked and how to pair again; a linked screen to open its link again', () => {
  const refused = new ApiError(401, 'INVALID_TOKEN', { message: 'x' });
  expect(describeError(refused)).toMatch(/Open the link the station printed again/);
  markPairedHandheld(true);
  try {
    expect(describeError(refused)).toMatch(/no longer accepts this handheld .* Pair it again: a supervisor shows a code in Settings → Site → Handhelds/);
  } finally {
    markPairedHandheld(false);
  }
});
