import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveEvidencePack } from '../../renderer/src/evidence/evidence-pack.ts';
import { createPackage, createReturn, startStation, type TestStation } from '../api/support.ts';
import { unzipped } from '../support/evidence-reader.ts';
import { StationCable } from './station-cable.ts';

/*
 * The dock's evidence pack (Alt+E) against a real station: the zip saved under the tracking
 * number's name and the PDF shown; a package the station does not have, or a station that cannot
 * be reached, said in words with nothing saved or shown.
 */

let ts: TestStation;
let packageId: number;
const TRACKING = `1ZEV/${Date.now().toString(36)}`;
beforeAll(async () => {
  ts = await startStation();
  const ret = await createReturn(ts.origin, ts.account1);
  packageId = (await createPackage(ts.origin, ts.account1, 1, ret.id, { tracking_number: TRACKING })).id;
});
afterAll(async () => {
  await ts.close();
});

function handedOver() {
  const saved: Array<{ name: string; blob: Blob }> = [];
  const shown: Array<{ pdf: Blob; title: string }> = [];
  return { saved, shown, save: (name: string, blob: Blob) => saved.push({ name, blob }), show: (pdf: Blob, title: string) => shown.push({ pdf, title }) };
}

describe('the evidence pack from the dock', () => {
  it('saves the zip under the tracking number and shows the PDF', async () => {
    const out = handedOver();
    const outcome = await saveEvidencePack(new StationCable(ts).client(), { accountId: 1, packageId, trackingNumber: TRACKING }, out.save, out.show);
    const name = `evidence-${TRACKING.replace(/[^A-Za-z0-9_-]/g, '_')}.zip`;
    expect(outcome).toEqual({ ok: true, message: `Evidence pack saved: ${name} (the PDF and the photos).` });
    expect(out.saved.map((s) => s.name)).toEqual([name]);
    const files = unzipped(new Uint8Array(await (out.saved[0]?.blob ?? new Blob([])).arrayBuffer()));
    expect([...files.keys()]).toEqual([name.replace(/\.zip$/, '.pdf')]);
    expect(out.shown.map((s) => s.title)).toEqual([`Evidence ${TRACKING}`]);
    expect(new TextDecoder().decode((await (out.shown[0]?.pdf ?? new Blob([])).arrayBuffer()).slice(0, 5))).toBe('%PDF-');
  });

  it('says why when the station has no such package or cannot be reached, and saves nothing', async () => {
    const cable = new StationCable(ts);
    const out = handedOver();
    const unknown = await saveEvidencePack(cable.client(), { accountId: 1, packageId: 999_999, trackingNumber: 'NOPE' }, out.save, out.show);
    expect(unknown.ok).toBe(false);
    expect(unknown.message).toMatch(/^The evidence pack of NOPE could not be made: .*999999/);
    cable.down = true;
    const offline = await saveEvidencePack(cable.client(), { accountId: 1, packageId, trackingNumber: TRACKING }, out.save, out.show);
    expect(offline).toEqual({
      ok: false,
      message: `The evidence pack of ${TRACKING} could not be made: The station cannot be reached. Your work stays on screen; try again when it is back.`,
    });
    expect(out.saved).toEqual([]);
    expect(out.shown).toEqual([]);
  });
});
