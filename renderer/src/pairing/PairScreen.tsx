import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ErrorBodySchema } from '#shared/api/errors.ts';
import { HandheldPairedSchema, PAIRING_PATH } from '#shared/api/handhelds.ts';
import { API_ROUTES } from '#shared/api/routes.ts';
import { saveDeviceToken } from '../connection.ts';

/** Whether this page is the pairing page a handheld opens (`/pair`). */
export function isPairingPage(): boolean {
  return window.location.pathname === PAIRING_PATH;
}

/**
 * The code the QR code put in the address's fragment, taken once and removed from the address at
 * once (history.replaceState), so the browser's history keeps `/pair` alone.
 */
export function takePairingCode(): string | null {
  const code = new URLSearchParams(window.location.hash.slice(1)).get('code');
  if (window.location.hash) history.replaceState(null, '', window.location.pathname);
  return code;
}

/** The station's refusal: what to show, and whether it is about the name (then the code still works). */
class PairingRefused extends Error {
  readonly aboutName: boolean;
  constructor(message: string, aboutName: boolean) {
    super(message);
    this.aboutName = aboutName;
  }
}

async function pair(code: string, deviceName: string): Promise<string> {
  const response = await fetch(API_ROUTES.pairHandheld.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    // No name: the one the code was made with on the station's screen.
    body: JSON.stringify(deviceName === '' ? { code } : { code, device_name: deviceName }),
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = ErrorBodySchema.safeParse(body).data;
    const aboutName = (error?.details.fields ?? []).some((f) => f.path === 'device_name');
    throw new PairingRefused(error?.details.message ?? `The station answered ${response.status}.`, aboutName);
  }
  return HandheldPairedSchema.parse(body).token;
}

/**
 * A handheld's pairing (docs/decisions/handheld-pairing.md): the code from the QR code is exchanged
 * at once, a typed one on submit; the device's own token is kept in local storage and the dock opens.
 */
export function PairScreen({ initialCode }: { initialCode: string | null }) {
  const [code, setCode] = useState(initialCode ?? '');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nameField = useRef<HTMLInputElement>(null);
  const submit = async (typed: string) => {
    setBusy(true);
    try {
      saveDeviceToken(await pair(typed, name.trim()));
      window.location.replace('/');
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
      setBusy(false);
      // A code made without a name (or a name taken): the person names the handheld, the code still works.
      if (error instanceof PairingRefused && error.aboutName) nameField.current?.focus();
    }
  };
  const started = useRef(false);
  useEffect(() => {
    if (initialCode === null || started.current) return;
    started.current = true;
    void submit(initialCode);
    // Once, with the code the address brought.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(code);
  };
  return (
    <main className="pair-screen" data-testid="pair-screen">
      <h1>Pair this handheld</h1>
      <form onSubmit={onSubmit}>
        <label>
          Pairing code (Settings → Site → Handhelds on a station)
          <input
            data-testid="pair-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            maxLength={9}
            required
          />
        </label>
        <label>
          This handheld&apos;s name (unless the station named it)
          <input
            data-testid="pair-name"
            ref={nameField}
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={100}
            placeholder="e.g. TC52 dock 3"
            autoComplete="off"
          />
        </label>
        <button type="submit" className="btn" data-testid="pair-submit" disabled={busy}>
          {busy ? 'Pairing…' : 'Pair'}
        </button>
      </form>
      {problem && (
        <p role="alert" data-testid="pair-problem">
          {problem}
        </p>
      )}
    </main>
  );
}
