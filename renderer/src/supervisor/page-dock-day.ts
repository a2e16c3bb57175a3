import { pageClient } from '../api/station-api.ts';
import { downloadBlob } from '../state/download.ts';
import { createDockDayStore, type SaveFile } from './dock-day-store.ts';

/** A browser download of text made on the page. */
const download: SaveFile = (name, text, type) => downloadBlob(name, new Blob([text], { type }));

/** The page's supervisor view, on the page's client, saving files as downloads. */
export const useDockDay = createDockDayStore(pageClient, download);
