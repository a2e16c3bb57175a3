import { z } from 'zod';

/** `GET /healthz`: unauthenticated liveness and identity of a station. */
export const HealthSchema = z.object({
  status: z.literal('ok'),
  name: z.string(),
  version: z.string(),
  /**
   * The data directory's schema version this station runs on (it upgrades older ones at start and
   * refuses newer ones): shown in the UI's about box. Absent from stations before 0.2.
   */
  data_schema_version: z.int().min(1).optional(),
});
export type Health = z.infer<typeof HealthSchema>;
