import { z } from 'zod';

/** `GET /healthz`: unauthenticated liveness and identity of a station. */
export const HealthSchema = z.object({
  status: z.literal('ok'),
  name: z.string(),
  version: z.string(),
});
export type Health = z.infer<typeof HealthSchema>;
