import { useEffect, useRef, useState } from 'react';
import QRCode from 'qrcode';
import type { HandheldPairing } from '#shared/api/handhelds.ts';
import type { TokenView } from '#shared/api/tokens.ts';
import { describeError } from '../api/describe-error.ts';
import { pageClient } from '../api/station-api.ts';

/** The name every handheld's token is given (`handheld: {device}`, docs/decisions/handheld-pairing.md). */
const HANDHELD_TOKEN = /^handheld: /;

/**
 * Settings → Site → Handhelds: a pairing code for a handheld, as text and as a QR code of the
 * address to open (the code in its fragment), and the paired handhelds with their revocation. All of
 * it needs a supervisor (the station refuses a terminal's token, and the sign-in opens).
 */
export function HandheldsPart() {
  const [pairing, setPairing] = useState<HandheldPairing | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [devices, setDevices] = useState<TokenView[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  // A pairing just made is brought into view: on a dock's screen the section is taller than the work area.
  const shown = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (pairing) shown.current?.scrollIntoView({ block: 'nearest' });
  }, [pairing]);
  const makePairing = async () => {
    const made = await pageClient.createHandheldPairing();
    // The QR code is drawn as SVG text: no image address for the page's policy to allow.
    setQr(made.pair_url === null ? null : await QRCode.toString(made.pair_url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }));
    setPairing(made);
  };
  const run = async (work: () => Promise<void>) => {
    try {
      await work();
      setMessage(null);
    } catch (error) {
      setMessage(describeError(error));
    }
  };
  const showDevices = () => run(async () => setDevices((await pageClient.listTokens()).data.filter((t) => HANDHELD_TOKEN.test(t.name) && t.revoked_at === null)));
  const revoke = (device: TokenView) =>
    run(async () => {
      await pageClient.revokeToken(device.id);
      await showDevices();
    });
  return (
    <div className="site-invite" data-testid="handhelds">
      <h3>Handhelds</h3>
      <p>
        <button type="button" className="btn btn-small" data-testid="handheld-pair" onClick={() => void run(makePairing)}>
          Pair a handheld
        </button>{' '}
        <button type="button" className="btn btn-small" data-testid="handheld-list" onClick={() => void showDevices()}>
          Paired handhelds
        </button>
      </p>
      {pairing && (
        <div ref={shown} data-testid="handheld-pairing">
          {qr && <div className="handheld-qr" data-testid="handheld-qr" role="img" aria-label={`QR code of ${pairing.pair_url ?? ''}`} dangerouslySetInnerHTML={{ __html: qr }} />}
          <p>
            <code className="join-code" data-testid="handheld-code">{pairing.code}</code>
          </p>
          <p className="small">
            Scan it, or open <code>{pairing.pair_url?.replace(/#.*$/, '') ?? 'https://STATION:PORT/pair'}</code> on the handheld and type the code. Works once, until{' '}
            {pairing.expires_at.slice(11, 16)} UTC.
          </p>
        </div>
      )}
      {devices && (
        <ul className="handheld-devices" data-testid="handheld-devices">
          {devices.length === 0 && <li>No handheld is paired.</li>}
          {devices.map((d) => (
            <li key={d.id} data-testid="handheld-device">
              {d.name.replace(HANDHELD_TOKEN, '')} <span className="small">(paired {d.created_at.slice(0, 10)})</span>{' '}
              <button type="button" className="btn btn-small" data-testid="handheld-revoke" onClick={() => void revoke(d)}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {message && (
        <p role="alert" data-testid="handheld-problem">
          {message}
        </p>
      )}
    </div>
  );
}
