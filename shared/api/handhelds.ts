import { z } from 'zod';
import { IdSchema, NameSchema, TimestampSchema } from './common.ts';

/*
 * Handhelds (docs/decisions/handheld-pairing.md): a supervisor shows a short-lived, single-use
 * pairing code; a handheld's browser exchanges it at once for a terminal token of its own.
 */

/** How long a pairing code works. */
export const PAIRING_CODE_MINUTES = 10;
/** Wrong codes the station takes per minute, from every caller together; past it every pairing waits. */
export const PAIRING_WRONG_CODES_PER_MINUTE = 10;
/** How a handheld's token is named (`handheld: {device_name}`): the station's list of tokens shows which device is which. */
export const HANDHELD_TOKEN_PREFIX = 'handheld: ';
/** The page a handheld opens to pair; the code rides in its fragment (`#code=…`), never in its path or query. */
export const PAIRING_PATH = '/pair';

/** A code as typed: 8 letters or digits, in two groups of 4 (case, a dash or a space do not matter). */
export const PAIRING_CODE_PATTERN = '^[0-9A-Za-z]{4}[- ]?[0-9A-Za-z]{4}$';

/**
 * A supervisor's request for a pairing code. Named here (on the station's screen, `handheld pair
 * --name`), the device is given that name whatever its page sends; unnamed, the device names itself.
 */
export const HandheldPairingCreateSchema = z.strictObject({
  device_name: NameSchema.optional().describe(
    "The handheld's name in the station's list of tokens (unique among the paired handhelds); absent: the device names itself when it pairs",
  ),
});
export type HandheldPairingCreate = z.infer<typeof HandheldPairingCreateSchema>;

/** A new pairing code, shown once (the station keeps only its hash). */
export const HandheldPairingSchema = z.object({
  code: z
    .string()
    .regex(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/)
    .describe("8 characters of Crockford's base32 (40 bits), shown as XXXX-XXXX"),
  expires_at: TimestampSchema,
  /** The address a handheld opens, the code in its fragment (what the QR code holds); null before the station listens. */
  pair_url: z.string().nullable(),
  /** The name the device will have, when the code was made with one; null: the device names itself. */
  device_name: z.string().nullable(),
});
export type HandheldPairing = z.infer<typeof HandheldPairingSchema>;

/** A handheld's exchange of a code for its own token (no token: the code is the credential). */
export const HandheldPairRequestSchema = z.strictObject({
  code: z.string().regex(new RegExp(PAIRING_CODE_PATTERN)).describe('The pairing code the station showed'),
  device_name: NameSchema.optional().describe(
    "The handheld's name: its token is named after it in the station's list of tokens (unique among the paired handhelds). A code made with a name gives that name instead; a code made without one needs this",
  ),
});
export type HandheldPairRequest = z.infer<typeof HandheldPairRequestSchema>;

/** The handheld's own token (a terminal's role), shown this once; the station keeps its hash. */
export const HandheldPairedSchema = z.object({
  token: z.string().min(1).max(4096),
  token_id: IdSchema,
  name: z.string(),
});
export type HandheldPaired = z.infer<typeof HandheldPairedSchema>;
