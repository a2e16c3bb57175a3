import { create } from 'zustand';

/*
 * A label's PDF in the browser: fetched with this screen's token (the PDF routes need it), kept as a
 * blob URL and opened in a new tab, where the browser's PDF viewer prints it. When the browser does
 * not open the tab (a blocked pop-up), the link stays on screen to open it by hand.
 */

interface PdfViewState {
  url: string | null;
  title: string;
  /** The browser opened it in a tab of its own. */
  opened: boolean;
  show(pdf: Blob, title: string): void;
  close(): void;
}

/** How long a PDF's blob URL is kept after it was replaced or closed (the tab may still be loading it). */
const KEEP_MS = 60_000;

const release = (url: string | null) => {
  if (url) setTimeout(() => URL.revokeObjectURL(url), KEEP_MS);
};

export const usePdfView = create<PdfViewState>()((set, get) => ({
  url: null,
  title: '',
  opened: false,
  show(pdf, title) {
    release(get().url);
    const url = URL.createObjectURL(pdf.type === 'application/pdf' ? pdf : new Blob([pdf], { type: 'application/pdf' }));
    const tab = window.open(url, '_blank');
    set({ url, title, opened: tab !== null });
  },
  close() {
    release(get().url);
    set({ url: null, title: '', opened: false });
  },
}));

/** Opens a PDF for the browser to print (the `OpenPdf` of the page). */
export const openPdfInBrowser = (pdf: Blob, title: string): void => usePdfView.getState().show(pdf, title);
