/*
 * A file handed to the person as a download: the browser saves it (or asks where), the desktop app's
 * window asks where with the system's save dialog. The blob URL is kept a while for the save to read it.
 */

const KEEP_MS = 60_000;

export function downloadBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), KEEP_MS);
}
