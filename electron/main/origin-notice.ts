/*
 * The window's origin is http://127.0.0.1:<port>, and the browser keeps the UI's unsent work, its
 * packages in progress and its screen settings per origin. When the station cannot have its port (another
 * program holds it) it opens on another, and the worker must know where that work went: it is kept
 * under the old origin, not lost, and comes back when the station has its port again.
 */

export interface OriginNotice {
  title: string;
  message: string;
  detail: string;
}

/** What the app says when the station listens on `used` instead of the port it keeps, `kept`. */
export function portTakenNotice(kept: number, used: number, settingsFile: string): OriginNotice {
  return {
    title: 'Returns Station',
    message: `Port ${kept} is in use by another program: the station opened on port ${used} for now.`,
    detail:
      `Work this window kept on port ${kept} (unsent scans and photos, packages left in progress, screen settings) is not lost: ` +
      `it stays there and is sent when the app starts on port ${kept} again. Close the program that holds port ${kept} and ` +
      `restart the app, or choose another "port" in ${settingsFile}.`,
  };
}

/** The port of an origin such as http://127.0.0.1:4781. */
export function portOf(origin: string): number {
  return Number(new URL(origin).port);
}
