/*
 * Whether this page works with a paired handheld's own token (docs/decisions/handheld-pairing.md)
 * rather than a link's or the desktop's: the station refusing it means the pairing was revoked, and
 * the way back is pairing again, not the link a station prints. No DOM here: errors are described
 * with it in tests too.
 */
let paired = false;

export function markPairedHandheld(value: boolean): void {
  paired = value;
}

export function isPairedHandheld(): boolean {
  return paired;
}
