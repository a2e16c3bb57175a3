/*
 * The evidence pack's bounds (docs/api-reference.md, The evidence pack): how much of a package's
 * photos its PDF draws. The zip holds every file whatever these say.
 */

/** Most photos the PDF draws. */
export const EVIDENCE_MAX_PHOTOS = 40;
/** Most bytes of photos the PDF draws, all together. */
export const EVIDENCE_MAX_PHOTO_BYTES = 64 * 1024 * 1024;
/** A photo larger than this is named, not drawn (pdfkit decodes and deflates a PNG again). */
export const EVIDENCE_MAX_ONE_PHOTO_BYTES = 16 * 1024 * 1024;
