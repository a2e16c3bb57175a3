export { MediaTooLargeError, openMediaFiles, type MediaFiles, type StoredMedia } from './media-files.ts';
