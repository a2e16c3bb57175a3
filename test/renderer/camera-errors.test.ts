import { describe, expect, it } from 'vitest';
import { describeCameraError } from '../../renderer/src/media/camera-errors.ts';
import { TONE_PATTERNS } from '../../renderer/src/feedback/sound.ts';

describe('camera errors in plain words', () => {
  const named = (name: string, message: string) => Object.assign(new Error(message), { name });
  it('says what to do for each getUserMedia failure, never the browser text', () => {
    expect(describeCameraError(named('NotFoundError', 'Requested device not found'))).toMatch(/^No camera found\./);
    expect(describeCameraError(named('NotAllowedError', 'Permission denied'))).toMatch(/^The camera is blocked/);
    expect(describeCameraError(named('NotReadableError', 'Could not start video source'))).toMatch(/^The camera is busy/);
    for (const text of [describeCameraError(named('Whatever', 'Some raw text')), describeCameraError('x'), describeCameraError(null)]) {
      expect(text).toMatch(/^The camera could not be started/);
      expect(text).not.toContain('raw text');
    }
  });
});

describe('tones', () => {
  it('are all different, so each is learnt by ear (defective is not the warning)', () => {
    const patterns = Object.values(TONE_PATTERNS).map((p) => JSON.stringify(p));
    expect(new Set(patterns).size).toBe(patterns.length);
    expect(TONE_PATTERNS.defective).not.toEqual(TONE_PATTERNS.warning);
  });
});
