import type { StationConnection } from '#shared/station-config.ts';

declare global {
  interface Window {
    /** Set by the Electron preload; absent when the UI is opened from `returns-station serve` in a browser. */
    readonly station?: StationConnection;
  }
}
