import type { RefObject } from 'react';
import { PinSchema } from '#shared/api/station.ts';

/** What is wrong with a PIN typed on screen (the station's own rule), or null. */
export function pinProblem(pin: string): string | null {
  return PinSchema.safeParse(pin).success ? null : 'The PIN is 4 to 8 digits.';
}

type Field = readonly [value: string, set: (value: string) => void];

interface BadgePinProps {
  /** The fields' test ids (docs/testing.md lists them). */
  badgeTestId: string;
  pinTestId: string;
  againTestId?: string;
  badge: Field;
  pin: Field;
  /** A PIN being chosen: asked twice, and the browser offers no saved one. */
  again?: Field;
  pinRef?: RefObject<HTMLInputElement | null>;
  /** Which field takes the focus when shown: the badge, or the PIN (the badge was scanned already). */
  autoFocus?: false | 'badge' | 'pin';
}

/**
 * A supervisor's badge (typed, or scanned into the field) and PIN: the one form of both the
 * supervisor's sign-in and the first supervisor's set-up, with touch-sized fields.
 */
export function BadgePinFields({ badgeTestId, pinTestId, againTestId, badge, pin, again, pinRef, autoFocus = false }: BadgePinProps) {
  const secret = { type: 'password', inputMode: 'numeric', maxLength: 8, autoComplete: again ? 'new-password' : 'off' } as const;
  return (
    <>
      <label className="badge-pin-field">
        Badge{' '}
        <input
          data-testid={badgeTestId}
          value={badge[0]}
          onChange={(e) => badge[1](e.target.value)}
          maxLength={64}
          autoComplete="off"
          autoFocus={autoFocus === 'badge'}
        />
      </label>
      <label className="badge-pin-field">
        {again ? 'PIN (4–8 digits)' : 'PIN'}{' '}
        <input ref={pinRef} data-testid={pinTestId} value={pin[0]} onChange={(e) => pin[1](e.target.value)} {...secret} autoFocus={autoFocus === 'pin'} />
      </label>
      {again && (
        <label className="badge-pin-field">
          PIN again <input data-testid={againTestId} value={again[0]} onChange={(e) => again[1](e.target.value)} {...secret} />
        </label>
      )}
    </>
  );
}
