import { z } from 'zod';
import { IdSchema, NameSchema, TimestampSchema } from './common.ts';
import { MAX_SITE_WORKERS, SiteManagedSchema, SiteWorkerSchema } from './site-config.ts';
import { UpstreamSettingsInputSchema } from './sync.ts';

/*
 * A site: one station is the hub (the only one that talks to the returns service), the others joined
 * it with a short-lived, single-use join code (docs/decisions/site-join.md).
 */

/** A join code: 20 characters of Crockford's base32 (4 name the invite, 16 — 80 bits — are secret), typed in groups of 4. */
export const JOIN_CODE_PATTERN = '^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{4}(-?[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{4}){4}$';
/** How long a join code works. */
export const JOIN_CODE_MINUTES = 15;
/** Wrong proofs that burn a code (a guess, a wrong code, or a machine in the middle). */
export const JOIN_CODE_WRONG_PROOFS = 3;

const Sha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/);
export const CertificateFingerprintSchema = z
  .string()
  .regex(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
  .describe('SHA-256, upper-case hex pairs joined by colons');

/** A site authority's certificate as a member pins it: the PEM and its SHA-256. */
export const SiteAuthoritySchema = z.object({
  pem: z.string().min(1).max(16_384),
  sha256: CertificateFingerprintSchema,
});

/**
 * `GET /api/v1/station/site/authorities`: what a hub's members trust. `next` is the authority's
 * successor, made within a year of its end and served from 30 days before it: a member that took it
 * keeps syncing across the roll without a new join (docs/decisions/hub-tls.md).
 */
export const SiteAuthoritiesSchema = z.object({
  current: SiteAuthoritySchema,
  next: SiteAuthoritySchema.nullable(),
});
export type SiteAuthorities = z.infer<typeof SiteAuthoritiesSchema>;

/** A new join code, shown once (the hub keeps only its hash). */
export const SiteInviteSchema = z.object({
  code: z.string().regex(new RegExp(JOIN_CODE_PATTERN)),
  expires_at: TimestampSchema,
  /** The hub's address to join, where it listens; null before it listens. */
  hub_url: z.string().nullable(),
  /** The fingerprint of the hub's site certificate authority that a joining station pins; null when the hub serves no TLS. */
  ca_sha256: CertificateFingerprintSchema.nullable(),
});
export type SiteInvite = z.infer<typeof SiteInviteSchema>;

/**
 * A joining station's request to the hub (no token: the proof is the credential). `proof` is
 * HMAC-SHA256 keyed by the code's hash over "join", the CA fingerprint the station saw and its nonce.
 */
export const SiteJoinRequestSchema = z.strictObject({
  invite: z
    .string()
    .regex(/^[0-9A-HJKMNP-TV-Z]{4}$/)
    .describe('The first four characters of the join code (they name the invite; not secret)'),
  nonce: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/)
    .describe('32 random bytes, base64url'),
  ca_sha256: CertificateFingerprintSchema.describe('The fingerprint of the top certificate the station was served'),
  proof: Sha256HexSchema,
  name: NameSchema.describe('The joining station’s name, shown in the hub’s list of members'),
  previous_member_id: IdSchema.optional().describe('The membership this join replaces (its token is revoked)'),
  workers: z
    .array(SiteWorkerSchema)
    .max(MAX_SITE_WORKERS)
    .default([])
    .describe("The joining station's own workers: merged into the site's by badge (docs/decisions/site-config.md)"),
});
export type SiteJoinRequest = z.infer<typeof SiteJoinRequestSchema>;

/** The hub's answer: its own proof (HMAC over "hub", its CA fingerprint and the nonce), the member's token and the site's accounts. */
export const SiteJoinAnswerSchema = z.object({
  member_id: IdSchema,
  hub_proof: Sha256HexSchema,
  token: z.string().min(1).max(4096),
  accounts: z.array(IdSchema).min(1).max(100),
});
export type SiteJoinAnswer = z.infer<typeof SiteJoinAnswerSchema>;

/** Joining a hub, asked of a running station (the settings screen, or `site join` while it runs). */
export const SiteJoinInputSchema = z.strictObject({
  hub_url: z
    .url({ protocol: /^https$/ })
    .max(2048)
    .describe("The hub's https address, as its invite shows it"),
  code: z.string().regex(new RegExp(JOIN_CODE_PATTERN)).describe('The join code the hub showed'),
  name: NameSchema.optional().describe("This station's name among the members (default: the machine's name)"),
});
export type SiteJoinInput = z.infer<typeof SiteJoinInputSchema>;

export const SiteMemberSchema = z.object({
  id: IdSchema,
  name: z.string(),
  joined_at: TimestampSchema,
  /** The member's last request to the hub; null when it has not called since it joined. */
  last_contact_at: TimestampSchema.nullable(),
  /** The changes it held unsent at its last contact (its requests say so); null when not told yet. */
  pending_changes: z.int().min(0).nullable(),
  /** When the hub removed it (its token revoked then); null while a member. */
  removed_at: TimestampSchema.nullable(),
});
export type SiteMember = z.infer<typeof SiteMemberSchema>;

/** A hub handing its uplink to a member (docs/decisions/site-promote.md): named by a supervisor on the hub. */
export const PromoteMemberInputSchema = z.strictObject({
  member_id: IdSchema.describe('The member that becomes the hub (`site show` lists the members)'),
});
export type PromoteMemberInput = z.infer<typeof PromoteMemberInputSchema>;

/** Where the uplink went: the member named to take it, when this hub stopped syncing with the returns service, and when the member took it. */
export const SiteHandoverSchema = z.object({
  member_id: IdSchema,
  stepped_down_at: TimestampSchema,
  taken_at: TimestampSchema.nullable(),
});
export type SiteHandover = z.infer<typeof SiteHandoverSchema>;

/** The uplink as the old hub hands it to the member it named: the returns service's two addresses, its token and the site's accounts. */
export const SiteUplinkSchema = z.object({
  returns_url: z.url({ protocol: /^https?$/ }),
  base_url: z.url({ protocol: /^https?$/ }),
  token: z.string().min(1).max(4096),
  accounts: z.array(IdSchema).min(1).max(100),
});
export type SiteUplink = z.infer<typeof SiteUplinkSchema>;

/**
 * `POST /api/v1/station/site/take-over`, on a member: it becomes the site's hub. Without a body (or
 * `{}`), it takes the uplink its hub offered it (`site promote MEMBER` there); with `without_hub`,
 * its hub's machine is lost and the operator gives the returns service itself
 * (docs/decisions/site-promote.md).
 */
export const TakeOverInputSchema = z.strictObject({
  without_hub: UpstreamSettingsInputSchema.optional().describe(
    'The hub is lost: the returns service this station syncs with from now on, as `upstream set` takes it. What only the lost hub held is lost with it.',
  ),
});
export type TakeOverInput = z.input<typeof TakeOverInputSchema>;

/** `GET /api/v1/station/site/uplink-offer`, on a member: whether its hub named it to take the uplink, as the hub says now. */
export const UplinkOfferSchema = z.object({
  /** The hub stepped down for this station and the uplink waits for it (or it took it already and may ask again). */
  offered: z.boolean(),
  /** The hub's answer, or why there is none, in words for a person. */
  message: z.string(),
  /** Whether the hub answered: when it did not, a supervisor may take over without it (its machine lost). */
  hub_answered: z.boolean(),
});
export type UplinkOffer = z.infer<typeof UplinkOfferSchema>;

/** A station's view of its site: as a hub, its members; as a member, its hub and what it holds unsent. */
export const SiteViewSchema = z.object({
  /** The hub this station joined; null when it joined none. */
  hub: z
    .object({
      url: z.string(),
      ca_sha256: CertificateFingerprintSchema,
      /** The successor of the hub's authority, announced and trusted beside it until the hub serves it; null when none. */
      next_ca_sha256: CertificateFingerprintSchema.nullable(),
      /** As the hub issued it and the station keeps it (its upstream settings' `site.member_id`). */
      member_id: z.string(),
      /** Set when the hub refused this station as removed from the site: its unsent changes stay held. */
      removed: z.boolean(),
    })
    .nullable(),
  /** Changes this station holds unsent. */
  pending_changes: z.int().min(0),
  /** Stations that joined this one (as their hub), removed ones too. */
  members: z.array(SiteMemberSchema),
  /** On a hub that stepped down (`site promote MEMBER`): which member takes the uplink, and whether it took it; null elsewhere. */
  handover: SiteHandoverSchema.nullable(),
  /** On a member: the hub's configuration it took (workers, rules, rule-like settings) and its own rules kept aside; null elsewhere. */
  managed: SiteManagedSchema.nullable(),
});
export type SiteView = z.infer<typeof SiteViewSchema>;
