/*
 * What a camera failure means to a dock worker, in plain words: the browser's own text ("Requested
 * device not found", "Permission denied") says nothing about what to do. Keyed by the DOMException
 * names of getUserMedia; anything else still gets a plain sentence.
 */

const FILES = 'You can still attach photos by dropping, pasting or picking files.';

export function describeCameraError(error: unknown): string {
  const name = error instanceof Error || (typeof error === 'object' && error !== null && 'name' in error) ? String((error as { name: unknown }).name) : '';
  switch (name) {
    case 'NotFoundError':
    case 'OverconstrainedError':
    case 'DevicesNotFoundError':
      return `No camera found. Connect a camera to this station and try again. ${FILES}`;
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return `The camera is blocked for the station. Allow camera use for this page (or ask the supervisor) and try again. ${FILES}`;
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return `The camera is busy or not working (another program may be using it). Close that program or reconnect the camera and try again. ${FILES}`;
    default:
      return `The camera could not be started. Check that it is connected and try again. ${FILES}`;
  }
}
