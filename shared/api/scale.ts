import { z } from 'zod';
import { boundedText, TimestampSchema, WeightUnitSchema } from './common.ts';
import { NetworkHostSchema } from './printing.ts';
import { KeyNameSchema } from './station-settings.ts';
import { ExpectedWeightSourceSchema, WeightSourceSchema, WeightVerdictSchema } from './weight-check.ts';

/*
 * The dock's scale (docs/operator-guide.md, The scale; docs/decisions/scale.md): which scale the
 * station weighs parcels on, and what a read of it found. The station itself reads serial and
 * network scales (`serial`, `tcp`); the terminal reads a USB HID scale (`hid`, WebHID), a
 * keyboard-wedge scale (`wedge`) and a weight typed by hand (`manual`). Kept by the station, apart
 * from its other settings (`GET` / `PUT /api/v1/station/scale`).
 */

/** The serial protocols the station speaks: Mettler Toledo MT-SICS (`S`/`SI`), NCI / Avery Weigh-Tronix (`W`). */
export const SCALE_PROTOCOLS = ['mt_sics', 'nci'] as const;
export type ScaleProtocol = (typeof SCALE_PROTOCOLS)[number];
export const SCALE_PROTOCOL_NAMES: Readonly<Record<ScaleProtocol, string>> = { mt_sics: 'MT-SICS', nci: 'NCI' };

/** The baud rates scales offer (9600 is what both protocols' scales ship with). */
export const SCALE_BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;

/** A serial port as the system names it: `/dev/ttyUSB0`, `/dev/serial/by-id/…` (Linux, macOS) or `COM3` (Windows); no `..`. */
export const SerialPathSchema = z
  .string()
  .trim()
  .max(255)
  .regex(/^(?!.*\.\.)(?:\/dev\/[A-Za-z0-9._:+/-]{1,200}|COM[1-9][0-9]{0,2})$/, 'A serial port: /dev/ttyUSB0, /dev/serial/by-id/… or COM3.');

const ProtocolSchema = z.enum(SCALE_PROTOCOLS);

export const ScaleSettingSchema = z
  .discriminatedUnion('kind', [
    /** No scale: the worker types the weight. */
    z.strictObject({ kind: z.literal('manual') }),
    z.strictObject({
      kind: z.literal('serial'),
      path: SerialPathSchema,
      baud_rate: z
        .literal([...SCALE_BAUD_RATES])
        .default(9600)
        .meta({ description: 'Bits per second; 8 data bits, no parity, 1 stop bit.' }),
      protocol: ProtocolSchema,
    }),
    z.strictObject({ kind: z.literal('tcp'), host: NetworkHostSchema, port: z.int().min(1).max(65535), protocol: ProtocolSchema }),
    /** A USB HID point-of-sale scale (usage page 0x8D), read by the desktop app's window (WebHID). */
    z.strictObject({ kind: z.literal('hid') }),
    /**
     * A scale that types its weight as keys. `prefix`: the key it sends first (the weight follows,
     * up to Enter); null: a burst of keys that reads as a weight with its unit (`1.25 kg`) is the
     * scale's, never a scan.
     */
    z.strictObject({ kind: z.literal('wedge'), prefix: KeyNameSchema.nullable().default(null) }),
  ])
  .meta({ description: 'manual: typed by hand; serial, tcp: read by the station; hid, wedge: read by the terminal.' });
export type ScaleSetting = z.infer<typeof ScaleSettingSchema>;
export type ScaleSettingInput = z.input<typeof ScaleSettingSchema>;
export const DEFAULT_SCALE: ScaleSetting = { kind: 'manual' };

/** The scale kinds the station reads itself (through `POST /api/v1/station/scale/read`). */
export type StationScale = Extract<ScaleSetting, { kind: 'serial' | 'tcp' }>;
export const isStationScale = (scale: ScaleSetting): scale is StationScale => scale.kind === 'serial' || scale.kind === 'tcp';

export const ScaleSettingsSchema = z.object({
  scale: ScaleSettingSchema,
  /** When a person last changed it; null: never (typed by hand). */
  updated_at: TimestampSchema.nullable(),
});
export type ScaleSettings = z.infer<typeof ScaleSettingsSchema>;

export const ScaleSettingsUpdateSchema = z.strictObject({ scale: ScaleSettingSchema });

/**
 * What a read found. `stable`: the weight to take (only a stable weight is ever taken); `in_motion`:
 * the scale did not settle in time (the last weight it showed); `overload` / `underload`: over its
 * capacity, below zero; `no_answer`: nothing came back; `disconnected`: the cable came out (or the
 * scale went off) during the read; `not_connected`: the port or address cannot be opened; `garbled`:
 * bytes came back that are not the protocol; `fault`: the scale reports an error of its own.
 */
export const SCALE_READ_STATES = ['stable', 'in_motion', 'overload', 'underload', 'no_answer', 'disconnected', 'not_connected', 'garbled', 'fault'] as const;
export type ScaleReadState = (typeof SCALE_READ_STATES)[number];

export const ScaleReadingSchema = z.object({
  state: z.enum(SCALE_READ_STATES),
  /** The weight read, in `unit`: with `stable` and `in_motion`, else null. */
  weight: z.number().nullable(),
  unit: WeightUnitSchema.nullable(),
  /** What happened, in words a worker can act on. */
  message: z.string(),
  /** The scale read, as a worker knows it: `MT-SICS on /dev/ttyUSB0`, `NCI at 10.0.0.7:4001`. */
  scale: z.string(),
});
export type ScaleReading = z.infer<typeof ScaleReadingSchema>;

/** A serial port the station's system has (`GET /api/v1/station/scale/ports`). */
export const SerialPortSchema = z.object({
  path: z.string(),
  manufacturer: z.string().nullable(),
  vendor_id: z.string().nullable(),
  product_id: z.string().nullable(),
});
export const SerialPortListSchema = z.object({ data: z.array(SerialPortSchema) });
export type SerialPortList = z.infer<typeof SerialPortListSchema>;

/** "MT-SICS on /dev/ttyUSB0", "NCI at 10.0.0.7:4001". */
export function stationScaleName(scale: StationScale): string {
  const protocol = SCALE_PROTOCOL_NAMES[scale.protocol];
  return scale.kind === 'serial' ? `${protocol} on ${scale.path}` : `${protocol} at ${scale.host}:${scale.port}`;
}

/** The units the station records a weight in (the spec's `weight_unit`). */
export type WeightUnit = z.infer<typeof WeightUnitSchema>;

/**
 * A weight as a scale names its unit, in a unit the station records: `g`, `kg`, `lb`, `oz` as they
 * are (any case: `KG`, `LB`), `mg` as grams, `lbs` as `lb`; null for a unit the station does not
 * weigh parcels in (carats, troy ounces, …).
 */
export function inStationUnit(value: number, unit: string): { value: number; unit: WeightUnit } | null {
  switch (unit.toLowerCase()) {
    case 'g':
      return { value, unit: 'g' };
    case 'kg':
      return { value, unit: 'kg' };
    case 'lb':
    case 'lbs':
      return { value, unit: 'lb' };
    case 'oz':
      return { value, unit: 'oz' };
    case 'mg':
      return { value: value / 1000, unit: 'g' };
    default:
      return null;
  }
}

/** What a read says, the same for every kind of scale (the station's and the terminal's). */
export const SCALE_SAYS = {
  stable: (weight: { value: number; unit: WeightUnit }) => `Stable: ${weight.value} ${weight.unit}.`,
  notSteady: (settleMs: number) => `Not steady: the scale still moved after ${settleMs / 1000} s. Let the parcel rest and weigh again.`,
  overload: 'The scale is over its capacity: take the parcel off (too heavy for this scale).',
  underload: 'The scale reads below zero: take everything off, zero it, and weigh again.',
  fault: (why: string) => `The scale answered, but ${why}.`,
} as const;

/*
 * A parcel's weighing, `GET` / `POST …/return_packages/{id}/weight`: the package's weight check
 * fields (its `weighing` in a get; shared/fields/return-package.ts) as one answer. The station's
 * own, never sent upstream.
 */

export const PackageWeightSchema = z.object({
  return_package_id: z.int(),
  weight: z.number(),
  unit: WeightUnitSchema,
  source: WeightSourceSchema,
  /** The scale that measured it, as a worker knows it; null when typed. */
  scale: z.string().nullable(),
  /** Who weighed it, when the terminal said. */
  operator_id: z.int().nullable(),
  weighed_at: TimestampSchema,
  /** What it should weigh, in `unit`; null: nothing to compare with. */
  expected_weight: z.number().nullable(),
  expected_from: ExpectedWeightSourceSchema.nullable(),
  /** ok, light, heavy, or nothing_to_compare; null for a weighing recorded before the check existed. */
  verdict: WeightVerdictSchema.nullable(),
});
export type PackageWeight = z.infer<typeof PackageWeightSchema>;

const WeighedSchema = z.number().positive().max(100_000);
const WeighOperatorSchema = z.int32().min(1).nullable().default(null);

/**
 * `POST …/return_packages/{id}/weight`. `station_scale`: the station reads its own scale now (serial
 * or network) and records the weight if it is stable; `scale`: a stable weight the terminal read (a
 * USB or keyboard scale); `typed`: typed by hand.
 */
export const PackageWeighSchema = z.discriminatedUnion('source', [
  z.strictObject({ source: z.literal('station_scale'), operator_id: WeighOperatorSchema }),
  z.strictObject({
    source: z.literal('scale'),
    weight: WeighedSchema,
    unit: WeightUnitSchema,
    /** The scale's name as the terminal knows it (a USB scale's product name): not blank. */
    scale: boundedText(100),
    operator_id: WeighOperatorSchema,
  }),
  z.strictObject({ source: z.literal('typed'), weight: WeighedSchema, unit: WeightUnitSchema, operator_id: WeighOperatorSchema }),
]);
export type PackageWeigh = z.infer<typeof PackageWeighSchema>;
export type PackageWeighInput = z.input<typeof PackageWeighSchema>;

/** What a weighing did: the station scale's reading (with `station_scale`), and the weight the package has now (null: none yet). */
export const PackageWeighedSchema = z.object({ reading: ScaleReadingSchema.nullable(), weight: PackageWeightSchema.nullable() });
export type PackageWeighed = z.infer<typeof PackageWeighedSchema>;
