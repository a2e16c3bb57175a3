import { expect, startDemoStation, test } from './fixtures.ts';
import { scan, scenario, uid } from './receiving-helpers.ts';

/*
 * Who received a package made at another station of the site (docs/decisions/site-receipt.md): a
 * worker receives it at the hub; a worker at a member station scans it and the package screen says
 * when and by whom. The member recorded the name with the package (its site receipt, through its
 * API) while the worker's id there names no one; the screen is photographed at three sizes.
 */

test.setTimeout(180_000);

test('the package screen of a package received at another station names who received it and when', async ({ browser }) => {
  const hub = await startDemoStation({ args: ['--host', '0.0.0.0'] });
  const member = await startDemoStation();
  try {
    const { code } = await hub.api.createSiteInvite();
    await member.api.joinHub({ hub_url: hub.origin, code });

    // At the hub: a package, a worker who receives it, and one who will scan it at the member.
    const made = await scenario(hub, 'delivered');
    const receiver = await hub.api.createOperator({ name: `Ada Lovelace ${uid()}`, badge_code: `BADGE-ADA-${uid()}` });
    const received = await hub.api.updatePackage(made.accountId, made.packageId, { status: 'received', processor_id: receiver.id });
    expect(received.status).toBe('received');
    const processedAt = (await hub.api.getPackage(made.accountId, made.packageId)).processed_at ?? '';
    expect(processedAt).not.toBe('');

    // At the member: the receipt arrived with the name; the worker's id there is nobody's.
    const atMember = await expect
      .poll(
        async () => {
          const local = (await member.api.lookup(made.tracking)).packages[0];
          return local ? (await member.api.getSiteReceipt(made.accountId, local.id)).processor_name : null;
        },
        { timeout: 60_000 },
      )
      .toBe(receiver.name)
      .then(async () => (await member.api.lookup(made.tracking)).packages[0]);
    if (!atMember) throw new Error('the package is not on the member');
    const local = await member.api.getPackage(made.accountId, atMember.id);
    expect(local).toMatchObject({ status: 'received', processor_id: null, processed_at: processedAt });
    await expect
      .poll(async () => (await member.api.listOperators({ per_page: 200 })).data.some((o) => o.badge_code === made.operator.badge_code), { timeout: 30_000 })
      .toBe(true);

    for (const viewport of [
      { width: 1024, height: 600 },
      { width: 800, height: 600 },
      { width: 412, height: 915 },
    ]) {
      const page = await browser.newPage({ viewport });
      await page.goto(member.uiUrl);
      await expect(page.getByTestId('scan-field')).toBeFocused();
      await scan(page, made.operator.badge_code ?? '');
      await expect(page.getByTestId('operator')).toContainText(made.operator.name);
      await scan(page, made.tracking);
      await expect(page.getByTestId('tracking-number')).toHaveText(made.tracking);
      const when = processedAt.slice(0, 16).replace('T', ' ');
      await expect(page.getByTestId('package-locked')).toContainText(`was already received on ${when} by ${receiver.name}`);
      await expect(page.getByTestId('package-locked')).toBeInViewport();
      await page.screenshot({ path: test.info().outputPath(`site-received-by-${viewport.width}x${viewport.height}.png`) });
      await page.close();
    }
  } finally {
    await member.stop();
    await hub.stop();
  }
});
