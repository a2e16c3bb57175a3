import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { connect, type DetailedPeerCertificate } from 'node:tls';
import { ErrorBodySchema, type ErrorCode } from '#shared/api/errors.ts';
import { SiteJoinAnswerSchema, type SiteJoinRequest } from '#shared/api/site.ts';
import type { SiteWorker } from '#shared/api/site-config.ts';
import { stationAddresses, trimAddress } from '#shared/api/sync.ts';
import type { UpstreamSettings } from '../sync/upstream/upstream-client.ts';
import { fetchTrusting } from '../tls/pinned-fetch.ts';
import { joinKeyOf, joinProof, newJoinNonce, normalJoinCode, sameProof } from './join-code.ts';

/*
 * The joining station's side (docs/decisions/site-join.md): read the authority the hub's address
 * serves, prove knowledge of the code over that authority's fingerprint, ask the hub over a
 * connection that trusts that authority alone, and trust nothing until the hub proved the code too.
 */

/** A join that did not happen; nothing was stored. `code` is the hub's error code when it refused. */
export class SiteJoinError extends Error {
  override name = 'SiteJoinError';
  readonly code: ErrorCode | null;
  constructor(message: string, code: ErrorCode | null = null) {
    super(message);
    this.code = code;
  }
}

const CONNECT_TIMEOUT_MS = 10_000;
const JOIN_TIMEOUT_MS = 20_000;

/** The top certificate of the chain served at the address (its authority), read without trusting it. */
export function servedAuthority(url: URL): Promise<{ pem: string; sha256: string }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port: Number(url.port || 443), rejectUnauthorized: false, ...(isIP(host) === 0 ? { servername: host } : {}) }, () => {
      let top: DetailedPeerCertificate = socket.getPeerCertificate(true);
      while (top.issuerCertificate && top.issuerCertificate !== top && top.issuerCertificate.fingerprint256 !== top.fingerprint256) top = top.issuerCertificate;
      socket.destroy();
      if (!top.raw) return reject(new SiteJoinError(`The hub at ${url.origin} served no certificate.`));
      const pem = new X509Certificate(top.raw).toString();
      resolve({ pem, sha256: top.fingerprint256 });
    });
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => socket.destroy(new Error(`no TLS answer in ${CONNECT_TIMEOUT_MS / 1000} s`)));
    socket.once('error', (error) => reject(new SiteJoinError(`The hub at ${url.origin} cannot be reached over TLS (${error.message}).`)));
  });
}

/** A station's membership from an earlier join: its member id at the hub whose authority it pinned. */
export interface PreviousMembership {
  memberId: number;
  hubCaSha256: string;
}

export interface JoinOptions {
  hubUrl: string;
  code: string;
  /** This station's name among the members (default: the machine's name). */
  name?: string;
  /** The membership this join replaces (the station joined a site before). */
  previous?: PreviousMembership | undefined;
  /** This station's own workers, merged into the site's by badge (site-config.ts). */
  workers?: SiteWorker[];
}

/** Joins the hub; resolves to the upstream settings to store (the hub, its accounts, the member's token, the pinned authority). */
export async function joinHub(options: JoinOptions): Promise<UpstreamSettings> {
  const normal = normalJoinCode(options.code);
  if (!normal) throw new SiteJoinError('That is not a join code: it is 20 letters and digits, as the hub shows it (XXXX-XXXX-XXXX-XXXX-XXXX).');
  let url: URL;
  try {
    url = new URL(trimAddress(options.hubUrl));
  } catch {
    throw new SiteJoinError(`The hub's address is not a URL: ${options.hubUrl}`);
  }
  if (url.protocol !== 'https:') throw new SiteJoinError(`The hub's address must be https:// (a hub serves TLS), got ${url.protocol}//.`);
  const served = await servedAuthority(url);
  const key = joinKeyOf(normal.code);
  // The old member id names a member of the hub that issued it: told to that hub alone (the same
  // authority), never to another, where the same number is another station's membership.
  const previousHere = options.previous?.hubCaSha256 === served.sha256 ? options.previous.memberId : undefined;
  const nonce = newJoinNonce();
  const request: SiteJoinRequest = {
    invite: normal.invite,
    nonce,
    ca_sha256: served.sha256,
    proof: joinProof(key, 'join', served.sha256, nonce),
    name: (options.name ?? hostname()).slice(0, 200) || 'station',
    ...(previousHere === undefined ? {} : { previous_member_id: previousHere }),
    workers: options.workers ?? [],
  };
  const base = url.toString().replace(/\/+$/, '');
  let response: Response;
  let body: unknown;
  try {
    // Over a connection that trusts the authority just seen, and nothing else.
    response = await fetchTrusting({ ca: served.pem })(`${base}/api/v1/site/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(JOIN_TIMEOUT_MS),
    });
    body = await response.json().catch(() => null);
  } catch (error) {
    throw new SiteJoinError(`The hub at ${url.origin} did not answer the join (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (!response.ok) {
    const refused = ErrorBodySchema.safeParse(body);
    const code = refused.success ? refused.data.error_code : null;
    const message = refused.success ? refused.data.details.message : `HTTP ${response.status}`;
    throw new SiteJoinError(`The hub refused the join (${response.status}${code ? ` ${code}` : ''}): ${message}`, code);
  }
  const answer = SiteJoinAnswerSchema.safeParse(body);
  if (!answer.success) throw new SiteJoinError(`The hub at ${url.origin} answered the join with something that is not a join's answer.`);
  // The hub shows it knows the code for the authority this station saw: a machine in the middle cannot.
  if (!sameProof(answer.data.hub_proof, joinProof(key, 'hub', served.sha256, nonce))) {
    throw new SiteJoinError(`The answer at ${url.origin} does not prove the join code: not trusted, nothing stored (a machine in the middle?).`);
  }
  return {
    ...stationAddresses(base),
    token: answer.data.token,
    accounts: answer.data.accounts,
    site: { hub_ca_pem: served.pem, hub_ca_sha256: served.sha256, member_id: String(answer.data.member_id) },
  };
}
