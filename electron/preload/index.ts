import { contextBridge, ipcRenderer } from 'electron';
import type { StationConnection } from '#shared/station-config.ts';

// The renderer gets exactly what it needs to reach its station over HTTP, and nothing of Node.
const connection = ipcRenderer.sendSync('station:connection') as StationConnection;
contextBridge.exposeInMainWorld('station', Object.freeze({ ...connection }));
