import { pageClient } from '../api/station-api.ts';
import { createDockDayStore, type SaveFile } from './dock-day-store.ts';

/** A browser download of text made on the page. */
const download: SaveFile = (name, text, type) => {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};

/** The page's supervisor view, on the page's client, saving files as downloads. */
export const useDockDay = createDockDayStore(pageClient, download);
