import { contextBridge, ipcRenderer } from 'electron';
import type { StationConnection } from '#shared/station-config.ts';

// The renderer gets exactly what it needs to reach its station over HTTP, and nothing of Node.
// The main process answers only the station window's own main frame; anything else gets null.
const connection = ipcRenderer.sendSync('station:connection') as StationConnection | null;
if (connection)
  contextBridge.exposeInMainWorld('station', Object.freeze({ baseUrl: connection.baseUrl, token: connection.token, version: connection.version }));
