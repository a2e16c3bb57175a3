import { pageClient } from '../api/station-api.ts';
import { createPrintQueueStore } from './print-queue-store.ts';

/** This page's print queue. */
export const usePrintQueue = createPrintQueueStore(pageClient);
