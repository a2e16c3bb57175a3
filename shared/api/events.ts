import { z } from 'zod';
import { TimestampSchema } from './common.ts';
import { ReturnRecordSchema } from './returns.ts';
import { ReturnPackageSchema } from './return-packages.ts';
import { SyncStatusSchema } from './station.ts';

/*
 * Live changes as Server-Sent Events (docs/api-reference.md, Live changes):
 * `GET /api/v1/accounts/{account_id}/events`, bearer header, `Last-Event-ID` resume.
 *
 * Each event: `id:` the change log sequence number (decimal), `event:` one of EVENT_NAMES,
 * `data:` one line of JSON `{account_id, occurred_at, <resource>}` where the resource is the
 * package (G fields), the return record, or the sync status.
 */

export const EVENT_NAMES = ['package.created', 'package.updated', 'return.created', 'return.updated', 'sync.status', 'site.config'] as const;
export type EventName = (typeof EVENT_NAMES)[number];
export const EventNameSchema = z.enum(EVENT_NAMES);

const envelope = { account_id: z.int(), occurred_at: TimestampSchema };

export const PackageEventDataSchema = z.object({ ...envelope, package: ReturnPackageSchema });
export const ReturnEventDataSchema = z.object({ ...envelope, return: ReturnRecordSchema });
export const SyncEventDataSchema = z.object({ ...envelope, sync: SyncStatusSchema });
/** The station's workers, rules or settings changed: a site's members fetch its configuration again (docs/decisions/site-config.md). */
export const SiteConfigEventDataSchema = z.object(envelope);

export const EVENT_DATA_SCHEMAS = {
  'package.created': PackageEventDataSchema,
  'package.updated': PackageEventDataSchema,
  'return.created': ReturnEventDataSchema,
  'return.updated': ReturnEventDataSchema,
  'sync.status': SyncEventDataSchema,
  'site.config': SiteConfigEventDataSchema,
} as const satisfies Record<EventName, z.ZodType>;

export type EventDataMap = { [K in EventName]: z.infer<(typeof EVENT_DATA_SCHEMAS)[K]> };
/** A parsed station event, discriminated by `event`. */
export type StationEvent = { [K in EventName]: { id: string; event: K; data: EventDataMap[K] } }[EventName];

/** Formats one event for the wire (`id`, `event`, `data` lines and a blank line). */
export function formatSseEvent(id: string, event: EventName, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Validates a raw SSE message as a station event; null for an unknown event name or data that
 * does not match its schema (the client skips such events rather than failing the stream).
 */
export function parseStationEvent(message: { id: string; event: string; data: string }): StationEvent | null {
  const name = EventNameSchema.safeParse(message.event);
  if (!name.success) return null;
  let json: unknown;
  try {
    json = JSON.parse(message.data);
  } catch {
    return null;
  }
  const parsed = EVENT_DATA_SCHEMAS[name.data].safeParse(json);
  if (!parsed.success) return null;
  return { id: message.id, event: name.data, data: parsed.data } as StationEvent;
}
