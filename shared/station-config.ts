import { z } from 'zod';

/**
 * What the renderer needs to reach its station: handed over by the Electron preload
 * (`window.station`) or, in a browser, derived from the page's origin and the link's token.
 */
export const StationConnectionSchema = z.object({
  baseUrl: z.string().url(),
  token: z.string().min(1).nullable(),
  version: z.string(),
});
export type StationConnection = z.infer<typeof StationConnectionSchema>;
