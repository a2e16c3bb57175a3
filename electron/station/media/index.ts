export { MediaBudgetError, MediaTooLargeError, openMediaFiles, type MediaFiles, type MediaUsage, type StoredMedia } from './content-store.ts';
