import { create } from 'zustand';

/*
 * A label's PDF in the browser: fetched with this screen's token (the PDF routes need it) and kept as
 * a blob URL behind a link in the corner. What the worker asked for (F5) also opens in a new tab, where
 * the browser's PDF viewer prints it; when the browser blocks that pop-up, the link opens it by hand.
 */

interface PdfViewState {
  url: string | null;
  title: string;
  /** The browser opened it in a tab of its own. */
  opened: boolean;
  show(pdf: Blob, title: string): void;
  /** Keeps the PDF ready behind the link without opening a tab (the worker opens it). */
  offer(pdf: Blob, title: string): void;
  close(): void;
}

/** How long a PDF's blob URL is kept after it was replaced or closed (the tab may still be loading it). */
const KEEP_MS = 60_000;

const release = (url: string | null) => {
  if (url) setTimeout(() => URL.revokeObjectURL(url), KEEP_MS);
};

/** A blob URL for `pdf`, the one it replaces released. */
function keep(replaced: string | null, pdf: Blob): string {
  release(replaced);
  return URL.createObjectURL(pdf.type === 'application/pdf' ? pdf : new Blob([pdf], { type: 'application/pdf' }));
}

export const usePdfView = create<PdfViewState>()((set, get) => ({
  url: null,
  title: '',
  opened: false,
  show(pdf, title) {
    const url = keep(get().url, pdf);
    const tab = window.open(url, '_blank');
    set({ url, title, opened: tab !== null });
  },
  offer(pdf, title) {
    set({ url: keep(get().url, pdf), title, opened: false });
  },
  close() {
    release(get().url);
    set({ url: null, title: '', opened: false });
  },
}));

/** Opens a PDF for the browser to print (the `OpenPdf` of the page): for what the worker asked for (F5, Test print). */
export const openPdfInBrowser = (pdf: Blob, title: string): void => usePdfView.getState().show(pdf, title);

/**
 * Offers a PDF behind the corner's link, no tab opened: for what comes unasked (a package's labels on
 * receipt). A tab opened then takes the keyboard, and the next parcel's scan would be typed into it.
 */
export const offerPdfInBrowser = (pdf: Blob, title: string): void => usePdfView.getState().offer(pdf, title);
