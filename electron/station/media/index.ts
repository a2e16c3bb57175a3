export {
  MediaBudgetError,
  MediaTooLargeError,
  openMediaFiles,
  type MediaFiles,
  type MediaFilesOptions,
  type MediaUsage,
  type StoredMedia,
} from './content-store.ts';
