import { type FormEvent, useState } from 'react';
import QRCode from 'qrcode';
import { HANDHELD_TOKEN_PREFIX, type HandheldPairing } from '#shared/api/handhelds.ts';
import type { TokenView } from '#shared/api/tokens.ts';
import { describeError } from '../api/describe-error.ts';
import { pageClient } from '../api/station-api.ts';
import { useReveal } from '../components/use-reveal.ts';

const isHandheld = (token: TokenView) => token.name.startsWith(HANDHELD_TOKEN_PREFIX);

/**
 * Settings → Site → Handhelds: a pairing code for the handheld the supervisor names, as text and as a
 * QR code of the address to open (the code in its fragment; the device gets the name), and the paired
 * handhelds by name with their revocation. All of it needs a supervisor (the station refuses a
 * terminal's token, and the sign-in opens).
 */
export function HandheldsPart() {
  const [name, setName] = useState('');
  const [pairing, setPairing] = useState<HandheldPairing | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [devices, setDevices] = useState<TokenView[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  // A pairing just made is brought into view: on a dock's screen the section is taller than the work area.
  const shown = useReveal<HTMLDivElement>(pairing);
  const makePairing = async () => {
    const made = await pageClient.createHandheldPairing({ device_name: name.trim() });
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
  const showDevices = () => run(async () => setDevices((await pageClient.listTokens()).data.filter((t) => isHandheld(t) && t.revoked_at === null)));
  const onPair = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await makePairing();
      setName('');
    });
  };
  const revoke = (device: TokenView) =>
    run(async () => {
      await pageClient.revokeToken(device.id);
      await showDevices();
    });
  return (
    <div className="site-invite" data-testid="handhelds">
      <h3>Handhelds</h3>
      <form className="handheld-form" onSubmit={onPair}>
        {/* Named by its placeholder and label, on the button's row: at 800×600 "Pair a handheld" stays in view. */}
        <input
          data-testid="handheld-name"
          aria-label="The handheld's name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={100}
          placeholder="Name, e.g. TC52 dock 3"
          autoComplete="off"
          required
        />{' '}
        <button type="submit" className="btn btn-small" data-testid="handheld-pair">
          Pair a handheld
        </button>{' '}
        <button type="button" className="btn btn-small" data-testid="handheld-list" onClick={() => void showDevices()}>
          Paired handhelds
        </button>
      </form>
      {pairing && (
        <div ref={shown} data-testid="handheld-pairing">
          {qr && (
            <div
              className="handheld-qr"
              data-testid="handheld-qr"
              role="img"
              aria-label={`QR code of ${pairing.pair_url ?? ''}`}
              dangerouslySetInnerHTML={{ __html: qr }}
            />
          )}
          <p>
            <code className="join-code" data-testid="handheld-code">
              {pairing.code}
            </code>
            {pairing.device_name !== null && (
              <>
                {' '}
                for <strong data-testid="handheld-code-name">{pairing.device_name}</strong>
              </>
            )}
          </p>
          <p className="small">
            Scan it, or open <code>{pairing.pair_url?.replace(/#.*$/, '') ?? 'https://STATION:PORT/pair'}</code> on the handheld and type the code. Works once,
            until {pairing.expires_at.slice(11, 16)} UTC.
          </p>
        </div>
      )}
      {devices && (
        <ul className="handheld-devices" data-testid="handheld-devices">
          {devices.length === 0 && <li>No handheld is paired.</li>}
          {devices.map((d) => (
            <li key={d.id} data-testid="handheld-device">
              <strong data-testid="handheld-device-name">{d.name.slice(HANDHELD_TOKEN_PREFIX.length)}</strong>{' '}
              <span className="small">(paired {d.created_at.slice(0, 16).replace('T', ' ')} UTC)</span>{' '}
              <button
                type="button"
                className="btn btn-small"
                data-testid="handheld-revoke"
                aria-label={`Revoke ${d.name.slice(HANDHELD_TOKEN_PREFIX.length)}`}
                onClick={() => void revoke(d)}
              >
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
