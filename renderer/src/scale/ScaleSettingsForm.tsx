import { useEffect, useState, type FormEvent } from 'react';
import {
  SCALE_BAUD_RATES,
  SCALE_PROTOCOL_NAMES,
  SCALE_PROTOCOLS,
  ScaleSettingSchema,
  type ScaleProtocol,
  type ScaleReading,
  type ScaleSetting,
  type WeightUnit,
} from '#shared/api/scale.ts';
import { browserHid, chooseHidScale } from './hid-scale.ts';
import { useScale } from './scale-store.ts';
import { typedWeight } from './typed-weight.ts';
import './scale.css';

/*
 * "Scale" of the station settings: which scale weighs parcels (typed by hand, a serial or network
 * scale the station reads, a USB scale this window reads, a keyboard-wedge scale), saved by a
 * supervisor, and a test read that shows the weight and whether it is stable — or says plainly why
 * there is none. Kept by the station for all its terminals.
 */

type Kind = ScaleSetting['kind'];

/** The scale fields as typed (numbers as text). */
interface ScaleForm {
  kind: Kind;
  path: string;
  baud: string;
  host: string;
  port: string;
  protocol: ScaleProtocol;
  prefix: string;
}

function formOf(scale: ScaleSetting): ScaleForm {
  return {
    kind: scale.kind,
    path: scale.kind === 'serial' ? scale.path : '',
    baud: scale.kind === 'serial' ? String(scale.baud_rate) : '9600',
    host: scale.kind === 'tcp' ? scale.host : '',
    port: scale.kind === 'tcp' ? String(scale.port) : '',
    protocol: scale.kind === 'serial' || scale.kind === 'tcp' ? scale.protocol : 'mt_sics',
    prefix: scale.kind === 'wedge' ? (scale.prefix ?? '') : '',
  };
}

/** The scale the form describes, or why it cannot be one (the station checks again). */
function scaleOf(form: ScaleForm): { scale: ScaleSetting } | { problem: string } {
  const candidate =
    form.kind === 'serial'
      ? { kind: 'serial', path: form.path.trim(), baud_rate: Number(form.baud), protocol: form.protocol }
      : form.kind === 'tcp'
        ? { kind: 'tcp', host: form.host.trim(), port: Number(form.port.trim()), protocol: form.protocol }
        : form.kind === 'wedge'
          ? { kind: 'wedge', prefix: form.prefix.trim() === '' ? null : form.prefix.trim() }
          : { kind: form.kind };
  if (form.kind === 'serial' && form.path.trim() === '') return { problem: 'Type the serial port, e.g. /dev/ttyUSB0 or COM3.' };
  if (form.kind === 'tcp' && form.host.trim() === '') return { problem: 'Type the scale’s host name or IP address.' };
  if (form.kind === 'tcp' && !/^\d{1,5}$/.test(form.port.trim())) return { problem: 'The port is a whole number from 1 to 65535.' };
  const parsed = ScaleSettingSchema.safeParse(candidate);
  if (!parsed.success) return { problem: parsed.error.issues[0]?.message ?? 'Not a scale the station can use.' };
  return { scale: parsed.data };
}

/** The scale section: the form, and beside it the test read. */
export function ScaleSettingsSection() {
  const settings = useScale((s) => s.settings);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    void useScale
      .getState()
      .load()
      .then((problem) => problem && setMessage(problem));
  }, []);
  if (settings === null) return <p role="status">Asking the station for its scale…</p>;
  return (
    <>
      {/* Keyed by what the station holds: a change from any terminal shows in the fields. */}
      <ScaleSettingsForm key={JSON.stringify(settings.scale)} scale={settings.scale} message={message} say={setMessage} />
      <ScaleTestRead scale={settings.scale} />
    </>
  );
}

function ScaleSettingsForm({ scale, message, say }: { scale: ScaleSetting; message: string | null; say: (message: string | null) => void }) {
  const [form, setForm] = useState<ScaleForm>(() => formOf(scale));
  const edit = (change: Partial<ScaleForm>) => setForm((f) => ({ ...f, ...change }));
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const read = scaleOf(form);
    if ('problem' in read) return say(read.problem);
    const refused = await useScale.getState().choose(read.scale);
    say(refused ?? 'Scale saved.');
  };
  const chooseUsb = async () => {
    const chosen = await chooseHidScale(browserHid());
    say('problem' in chosen ? chosen.problem : `${chosen.name} chosen: save, then test it.`);
  };
  const serialOrTcp = form.kind === 'serial' || form.kind === 'tcp';
  return (
    <form className="scale-form" onSubmit={(e) => void save(e)} aria-label="Scale" data-testid="scale-settings">
      <fieldset className="scale-kind">
        <legend>Scale</legend>
        <KindChoice kind="manual" testId="scale-kind-manual" label="None (typed by hand)" form={form} edit={edit} />
        <KindChoice kind="serial" testId="scale-kind-serial" label="Serial / USB-serial" form={form} edit={edit} />
        <KindChoice kind="tcp" testId="scale-kind-tcp" label="Network (TCP)" form={form} edit={edit} />
        <KindChoice kind="hid" testId="scale-kind-hid" label="USB HID (desktop app)" form={form} edit={edit} />
        <KindChoice kind="wedge" testId="scale-kind-wedge" label="Keyboard scale" form={form} edit={edit} />
      </fieldset>
      {form.kind === 'serial' && (
        <div className="settings-pair">
          <label>
            Serial port{' '}
            <input data-testid="scale-path" value={form.path} onChange={(e) => edit({ path: e.target.value })} maxLength={255} placeholder="/dev/ttyUSB0" />
          </label>
          <label>
            Baud{' '}
            <select data-testid="scale-baud" value={form.baud} onChange={(e) => edit({ baud: e.target.value })}>
              {SCALE_BAUD_RATES.map((rate) => (
                <option key={rate}>{rate}</option>
              ))}
            </select>
          </label>
        </div>
      )}
      {form.kind === 'tcp' && (
        <div className="settings-pair">
          <label>
            Host or IP <input data-testid="scale-host" value={form.host} onChange={(e) => edit({ host: e.target.value })} maxLength={253} />
          </label>
          <label>
            Port{' '}
            <input data-testid="scale-port" value={form.port} onChange={(e) => edit({ port: e.target.value })} inputMode="numeric" maxLength={5} size={5} />
          </label>
        </div>
      )}
      {serialOrTcp && (
        <label>
          Protocol{' '}
          <select data-testid="scale-protocol" value={form.protocol} onChange={(e) => edit({ protocol: e.target.value as ScaleProtocol })}>
            {SCALE_PROTOCOLS.map((protocol) => (
              <option key={protocol} value={protocol}>
                {protocol === 'mt_sics' ? 'MT-SICS (Mettler Toledo)' : `${SCALE_PROTOCOL_NAMES[protocol]} (Weigh-Tronix, shipping scales)`}
              </option>
            ))}
          </select>
        </label>
      )}
      {form.kind === 'hid' && (
        <p>
          <button type="button" className="btn btn-small" data-testid="scale-choose-hid" onClick={() => void chooseUsb()}>
            Choose USB scale
          </button>{' '}
          — once, with the scale plugged in.
        </p>
      )}
      {form.kind === 'wedge' && (
        <label>
          Key the scale sends first (empty: its weight is told by its unit, e.g. 1.25 kg){' '}
          <input data-testid="scale-prefix" value={form.prefix} onChange={(e) => edit({ prefix: e.target.value })} maxLength={20} size={8} />
        </label>
      )}
      <div className="button-row">
        <button type="submit" className="btn btn-small" data-testid="scale-save">
          Save scale
        </button>
        {message && (
          <span role="status" data-testid="scale-saved">
            {message}
          </span>
        )}
      </div>
    </form>
  );
}

/** One kind of scale, a radio button. */
function KindChoice({
  kind,
  testId,
  label,
  form,
  edit,
}: {
  kind: Kind;
  testId: string;
  label: string;
  form: ScaleForm;
  edit: (change: Partial<ScaleForm>) => void;
}) {
  return (
    <label>
      <input type="radio" name="scale-kind" value={kind} data-testid={testId} checked={form.kind === kind} onChange={() => edit({ kind })} /> {label}
    </label>
  );
}

const STATE_WORDS: Readonly<Record<ScaleReading['state'], string>> = {
  stable: 'Stable',
  in_motion: 'Not steady',
  overload: 'Overload',
  underload: 'Below zero',
  no_answer: 'No answer',
  disconnected: 'Cable pulled',
  not_connected: 'Not connected',
  garbled: 'Not understood',
  fault: 'Scale fault',
};

/** The test read: the weight, large, and whether it is stable; for a scale typed by hand, a weight to type. */
function ScaleTestRead({ scale }: { scale: ScaleSetting }) {
  const reading = useScale((s) => s.reading);
  const busy = useScale((s) => s.busy);
  const [typed, setTyped] = useState('');
  const [unit, setUnit] = useState<WeightUnit>('kg');
  const [typedOutcome, setTypedOutcome] = useState<string | null>(null);
  if (scale.kind === 'manual') {
    const take = (event: FormEvent) => {
      event.preventDefault();
      const weight = typedWeight(typed, unit);
      setTypedOutcome('problem' in weight ? weight.problem : `Taken: ${weight.value} ${weight.unit}.`);
    };
    return (
      <form className="scale-test" onSubmit={take} aria-label="Typed weight">
        <p>No scale: the worker types the parcel’s weight. Try it:</p>
        <div className="settings-pair">
          <label>
            Weight <input data-testid="scale-typed" value={typed} onChange={(e) => setTyped(e.target.value)} inputMode="decimal" maxLength={16} />
          </label>
          <label>
            Unit{' '}
            <select data-testid="scale-typed-unit" value={unit} onChange={(e) => setUnit(e.target.value as WeightUnit)}>
              {(['kg', 'g', 'lb', 'oz'] as const).map((u) => (
                <option key={u}>{u}</option>
              ))}
            </select>
          </label>
          <button type="submit" className="btn btn-small" data-testid="scale-typed-take">
            Take
          </button>
        </div>
        {typedOutcome && (
          <p role="status" data-testid="scale-state">
            {typedOutcome}
          </p>
        )}
      </form>
    );
  }
  return (
    <div className="scale-test" data-testid="scale-test-panel">
      <p>
        <button type="button" className="btn btn-small" data-testid="scale-test" disabled={busy} onClick={() => void useScale.getState().read()}>
          {busy ? 'Reading…' : 'Test read'}
        </button>{' '}
        {scale.kind === 'wedge' ? 'then press the scale’s print key with a parcel on it.' : 'with a parcel on the scale.'}
      </p>
      {reading && (
        <div className={`scale-reading scale-${reading.state}`} data-testid="scale-reading" data-state={reading.state}>
          <p className="scale-weight" data-testid="scale-weight">
            {reading.weight === null ? '—' : `${reading.weight} ${reading.unit ?? ''}`}
            <span className="scale-state-word"> {STATE_WORDS[reading.state]}</span>
          </p>
          <p role="status" data-testid="scale-state">
            {reading.message}
          </p>
          <p className="small">{reading.scale}</p>
        </div>
      )}
    </div>
  );
}
