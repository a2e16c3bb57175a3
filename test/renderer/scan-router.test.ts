import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStation, type TestStation } from '../api/support.ts';
import { createStationApi } from '../../renderer/src/api/station-api.ts';
import { useHeldScans } from '../../renderer/src/receiving/held-scans.ts';
import { useInProgress } from '../../renderer/src/receiving/in-progress-store.ts';
import { createPackageOpener } from '../../renderer/src/receiving/open-package.ts';
import { outbox, usePackage } from '../../renderer/src/receiving/page-package.ts';
import { createScanRouter, type ScanRouter } from '../../renderer/src/receiving/scan-router.ts';
import { createRegisterStore } from '../../renderer/src/registering/register-store.ts';
import { createSessionStore } from '../../renderer/src/session/session-store.ts';
import { useFeedback } from '../../renderer/src/state/feedback-store.ts';
import { useNav } from '../../renderer/src/state/nav-store.ts';
import { ApiClient } from '../../shared/api/client.ts';
import type { Operator } from '../../shared/api/station.ts';
import { manualReturnBody, returnLine } from '../support/manual-return.ts';
import { StationCable } from './station-cable.ts';

/*
 * What a scan means where the worker is, decided by the scan router against a real station: a badge
 * signs in or switches the worker (never a parcel), a tracking number opens its package, a second one
 * inside a package switches and says so, an unknown code starts registering.
 */

let ts: TestStation;
let client: ApiClient;
/** The router's own cable to the station: what it asked the station is in `cable.requests`. */
let cable: StationCable;
let router: ScanRouter;
let useSession: ReturnType<typeof createSessionStore>;
let useRegister: ReturnType<typeof createRegisterStore>;
let ada: Operator;
let bo: Operator;
beforeAll(async () => {
  ts = await startStation();
  // The page's package store and outbox (which the router drives) send through the page's client.
  createStationApi({ baseUrl: ts.origin, token: ts.stationToken, version: '' }, () => undefined);
  client = new ApiClient({ baseUrl: ts.origin, token: ts.stationToken });
  cable = new StationCable(ts);
  const routerClient = cable.client();
  useSession = createSessionStore(routerClient);
  useRegister = createRegisterStore(routerClient, createPackageOpener(routerClient).openPackage);
  router = createScanRouter({ client: routerClient, session: useSession, register: useRegister });
  ada = await client.createOperator({ name: 'Ada', badge_code: 'BADGE-ADA' });
  bo = await client.createOperator({ name: 'Bo', badge_code: 'BADGE-BO' });
});
afterAll(async () => {
  await outbox.idle();
  await ts.close();
});

async function scan(code: string): Promise<string> {
  router.submitScan(code);
  await router.scanQueue.idle();
  return useFeedback.getState().notice?.message ?? '';
}

let n = 0;
async function parcel() {
  const tag = `R${n++}${Date.now().toString(36)}`.toUpperCase();
  const ret = await client.createReturn(manualReturnBody({ account_id: 1, return_line_items: [returnLine(`SKU-${tag}`, 2)] }));
  const pkg = await client.createPackage(1, { return_id: ret.id, tracking_number: `1Z${tag}`, status: 'in_transit' });
  return { sku: `SKU-${tag}`, tracking: pkg.tracking_number, id: pkg.id };
}

describe('the scan router', () => {
  it('signs in by badge, opens a parcel, counts an item, and a badge on the package switches the worker only', async () => {
    expect(await scan('badge-ada')).toBe('Signed in: Ada');
    const a = await parcel();
    expect(await scan(a.tracking)).toBe(`Opened ${a.tracking}`);
    expect(useNav.getState().screen).toBe('package');
    expect(await scan(a.sku)).toMatch(/: 1$/);

    expect(await scan('BADGE-BO')).toBe('Signed in: Bo (instead of Ada)');
    expect(useSession.getState().operator?.id).toBe(bo.id);
    expect(useNav.getState().screen).toBe('package');
    expect(usePackage.getState().drafts.map((d) => d.quantity)).toEqual([1]);
    expect(await scan('BADGE-BO')).toBe('Bo is already signed in.');
    expect(ada.id).not.toBe(bo.id);
  });

  it('a second tracking number inside a package switches, says so and lists the first as in progress', async () => {
    const first = usePackage.getState().current?.pkg;
    const b = await parcel();
    expect(await scan(b.tracking)).toBe(`Switched to ${b.tracking}; ${first?.tracking_number} is still in progress (on the scan screen).`);
    expect(usePackage.getState().current?.pkg.id).toBe(b.id);
    expect(useInProgress.getState().packages.map((p) => p.tracking_number)).toEqual([first?.tracking_number]);
    // Reopening the first takes it off the list, and its scanned item is still there.
    await scan(first?.tracking_number ?? '');
    expect(usePackage.getState().drafts.map((d) => d.quantity)).toEqual([1]);
    expect(useInProgress.getState().packages.map((p) => p.tracking_number)).toEqual([b.tracking]);
  });

  it('the badge of a worker added after the page loaded its list switches the worker inside a package, and is no item', async () => {
    const a = await parcel();
    expect(await scan(a.tracking)).toMatch(/^(Opened|Switched to) /);
    expect(await scan(a.sku)).toMatch(/: 1$/);
    const cy = await client.createOperator({ name: 'Cy', badge_code: `BADGE-CY-${n}` });
    expect(await scan(cy.badge_code ?? '')).toMatch(/^Signed in: Cy \(instead of /);
    expect(useSession.getState().operator?.id).toBe(cy.id);
    expect(usePackage.getState().drafts.map((d) => [d.barcode, d.quantity])).toEqual([[null, 1]]);
    // On the scan screen it is no unknown parcel either.
    usePackage.getState().close();
    useNav.getState().go('scan');
    const dee = await client.createOperator({ name: 'Dee', badge_code: `BADGE-DEE-${n}` });
    expect(await scan(dee.badge_code ?? '')).toBe('Signed in: Dee (instead of Cy)');
    expect(useNav.getState().screen).toBe('scan');
    expect(await scan(bo.badge_code ?? '')).toBe('Signed in: Bo (instead of Dee)');
  });

  it('a deactivated worker’s badge says so and records nothing: at sign-in, on the scan screen, inside a package', async () => {
    const gone = await client.createOperator({ name: 'Ed', badge_code: `BADGE-ED-${n}` });
    await client.updateOperator(gone.id, { active: false });
    const refused = "Ed's badge is deactivated: nobody was signed in. Ask a supervisor (Workers) to activate it.";
    // Signed out: nobody is signed in.
    usePackage.getState().close();
    useNav.getState().go('scan');
    const before = useSession.getState().operator;
    useSession.getState().signOut();
    expect(await scan(gone.badge_code ?? '')).toBe(refused);
    expect(useSession.getState().operator).toBeNull();
    if (before) useSession.getState().signIn(before);
    // On the scan screen: no unknown parcel to register, the worker stays.
    expect(await scan(gone.badge_code ?? '')).toBe(refused);
    expect(useNav.getState().screen).toBe('scan');
    expect(useSession.getState().operator?.id).toBe(before?.id);
    // Inside a package: no unexpected item, on the screen or on the station.
    const a = await parcel();
    expect(await scan(a.tracking)).toMatch(/^(Opened|Switched to) /);
    expect(await scan(a.sku)).toMatch(/: 1$/);
    expect(await scan(gone.badge_code ?? '')).toBe(refused);
    expect(usePackage.getState().drafts.map((d) => [d.barcode, d.quantity])).toEqual([[null, 1]]);
    expect(useSession.getState().operator?.id).toBe(before?.id);
    await outbox.idle();
    const recorded = (await client.getPackage(1, a.id)).line_items;
    expect(recorded).toHaveLength(1);
    expect(JSON.stringify(recorded)).not.toContain(gone.badge_code);
  });

  it('an unknown code on the scan screen starts registering a parcel', async () => {
    usePackage.getState().close();
    useNav.getState().go('scan');
    expect(await scan('NEW-PARCEL-1')).toMatch(/^Unknown tracking number NEW-PARCEL-1/);
    expect(useNav.getState().screen).toBe('register');
    expect(useRegister.getState().trackingNumber).toBe('NEW-PARCEL-1');
  });

  it('counts an item of the open return without asking the station, and asks it about a code it does not know', async () => {
    useNav.getState().go('scan');
    const a = await parcel();
    expect(await scan(a.tracking)).toMatch(/^(Opened|Switched to) /);
    const before = cable.requests.length;
    // The open's upstream read is not awaited: its answer may come in after the open.
    const asked = () => cable.requests.slice(before).filter((r) => !r.endsWith('/sync/refresh'));
    expect(await scan(a.sku)).toMatch(/: 1$/);
    expect(asked()).toEqual([]);
    expect(await scan('SOMETHING-ELSE')).toBe('Unexpected item SOMETHING-ELSE — not on this return.');
    // The lookup, then the workers (an unknown code may be a badge this page has not seen), then
    // whether it is a supervisor's badge (this page is not given those).
    expect(asked()).toEqual(['GET /api/v1/station/lookup', 'GET /api/v1/station/operators', 'POST /api/v1/station/badge-checks']);
  });

  it('while registering, a scanned SKU finds its return', async () => {
    const a = await parcel();
    usePackage.getState().close();
    useNav.getState().go('scan');
    await scan('NEW-PARCEL-2');
    expect(useNav.getState().screen).toBe('register');
    expect(await scan(a.sku)).toBe('1 return found — press its number to attach the parcel.');
    expect(useRegister.getState().candidates.map((c) => c.return.id)).toHaveLength(1);
  });

  it('with the station unreachable, a scanned parcel is held (once) and nothing opens; scanned again when the station answers, it opens and is held no more', async () => {
    usePackage.getState().close();
    useNav.getState().go('scan');
    const a = await parcel();
    cable.down = true;
    try {
      expect(await scan(a.tracking)).toBe(`${a.tracking} held: it opens when the station answers.`);
      expect(await scan(a.tracking)).toBe(`${a.tracking} is already held: it opens when the station answers.`);
      expect(useHeldScans.getState().scans.map((h) => h.code)).toEqual([a.tracking]);
      expect(usePackage.getState().current).toBeNull();
    } finally {
      cable.down = false;
    }
    expect(await scan(a.tracking)).toBe(`Opened ${a.tracking}`);
    expect(useHeldScans.getState().scans).toEqual([]);
  });

  it('with the station unreachable inside a package, an item of the return is counted and a code not on it is refused in words, not guessed at', async () => {
    const a = await parcel();
    expect(await scan(a.tracking)).toMatch(/^(Opened|Switched to) /);
    cable.down = true;
    try {
      expect(await scan(a.sku)).toMatch(/: 1$/);
      // It may be another parcel, a unit label or a badge: only the station can say, so nothing is recorded.
      expect(await scan('EAN-4006381333931')).toBe(
        'EAN-4006381333931 not recorded: it is not on this return, and the station cannot be reached to look it up. Scan it again when the station answers.',
      );
      expect(usePackage.getState().drafts.map((d) => [d.return_line_item_id === null, d.quantity])).toEqual([[false, 1]]);
      expect(usePackage.getState().current?.pkg.id).toBe(a.id);
    } finally {
      cable.down = false;
    }
    expect(await scan('EAN-4006381333931')).toBe('Unexpected item EAN-4006381333931 — not on this return.');
    await outbox.idle();
    expect((await client.getPackage(1, a.id)).line_items.map((i) => [i.return_line_item_id === null, i.quantity])).toEqual([
      [false, 1],
      [true, 1],
    ]);
  });
  it('a unit label opens its package with the unit selected, from the scan screen or another package, and counts nothing', async () => {
    useNav.getState().go('scan');
    const a = await parcel();
    const b = await parcel();
    // Unit ids are given to inspected items (the station's rules): a's item, like new.
    const item = await client.createLineItem(1, a.id, { return_line_item_id: null, name: 'Kettle', condition: 'like_new' });
    await client.createLineItem(1, a.id, { return_line_item_id: null, name: 'Lid', condition: 'damaged' });
    const unit = item.unit_id ?? '';
    expect(unit).toMatch(/^RS-/);
    if (!useSession.getState().operator) await scan('BADGE-ADA');
    expect(await scan(unit.toLowerCase())).toBe(`Unit ${unit}: Kettle — bin RESTOCK`);
    expect(usePackage.getState().current?.pkg.id).toBe(a.id);
    expect(usePackage.getState().selectedKey).toBe(`li-${item.id}`);
    // From another package: that one is left in progress, the unit's opens with it selected.
    await scan(b.tracking);
    usePackage.getState().select(usePackage.getState().drafts[0]?.key ?? '');
    expect(await scan(unit)).toBe(`Unit ${unit}: Kettle — bin RESTOCK`);
    expect(usePackage.getState().current?.pkg.id).toBe(a.id);
    // On its own package: selected again, never counted as an unexpected item.
    usePackage.getState().select(usePackage.getState().drafts[1]?.key ?? '');
    const drafts = usePackage.getState().drafts.length;
    expect(await scan(unit)).toBe(`Unit ${unit}: Kettle — bin RESTOCK`);
    expect(usePackage.getState().selectedKey).toBe(`li-${item.id}`);
    expect(usePackage.getState().drafts).toHaveLength(drafts);
  });
});
