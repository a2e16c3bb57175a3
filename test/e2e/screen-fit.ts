import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

/* Checks that a screen fits the window at the sizes the station is used at, for the dock-sizes specs. */

/** A dock terminal (1024×600), a small one (800×600) and a handheld in portrait (412×915). */
export const SIZES = [
  { name: '1024x600', width: 1024, height: 600 },
  { name: '800x600', width: 800, height: 600 },
  { name: '412x915', width: 412, height: 915 },
] as const;

/** An open package's next actions: receive, the conditions, and the selected unit's Defective, Label, Notes and Photo. */
export function packageActions(page: Page): Locator[] {
  const panel = page.getByTestId('selected-item');
  return [
    page.getByTestId('receive'),
    page.getByTestId('condition-panel'),
    panel.getByRole('button', { name: /^Defective/ }),
    panel.getByTestId('print-label'),
    panel.getByLabel('Notes'),
    page.getByTestId('take-photo'),
  ];
}

/** A screen the header opens: on a handheld, behind the Menu button. */
export async function openFromHeader(page: Page, handheld: boolean, button: Locator): Promise<void> {
  if (handheld && !(await button.isVisible())) await page.getByTestId('menu-button').click();
  await button.click();
}

/**
 * No horizontal overflow, the page itself does not scroll, the key bar is in view (two lines at most), and each action
 * is in view: at once at a dock's size, after scrolling the work area on a handheld (`scrolled`).
 */
export async function expectFits(page: Page, testInfo: TestInfo, name: string, actions: Locator[], scrolled: boolean): Promise<void> {
  const shot = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: shot });
  await testInfo.attach(name, { path: shot, contentType: 'image/png' });
  const { overflowX, overflowY } = await page.evaluate(() => {
    const { document, innerWidth } = globalThis as unknown as {
      document: { documentElement: { scrollWidth: number; scrollHeight: number; clientHeight: number } };
      innerWidth: number;
    };
    const root = document.documentElement;
    return { overflowX: root.scrollWidth - innerWidth, overflowY: root.scrollHeight - root.clientHeight };
  });
  expect(overflowX, `${name}: the page is wider than the window`).toBeLessThanOrEqual(0);
  expect(overflowY, `${name}: the page itself scrolls`).toBeLessThanOrEqual(0);
  await expect(page.getByTestId('key-legend'), `${name}: key bar`).toBeInViewport({ ratio: 1 });
  // Every key of the screen, and the bar keeps to two lines (a handheld's: what it can press, and Keys).
  const lines = await page
    .getByTestId('key-legend')
    .locator(':scope > *')
    .evaluateAll((els) => new Set(els.map((el) => Math.round(el.getBoundingClientRect().top))).size);
  expect(lines, `${name}: the key bar's lines`).toBeLessThanOrEqual(2);
  for (const action of actions) {
    if (scrolled) await action.scrollIntoViewIfNeeded();
    await expect(action, `${name}: ${action.toString()}`).toBeInViewport({ ratio: 0.98 });
  }
}

/**
 * No cell or head shortens its text with an ellipsis or clips it — the cell itself or anything in it
 * (an item's name, its SKU, a chip) — and no word of a disposition chip or a status badge is broken
 * over two lines.
 */
export async function expectNoCutText(cells: Locator): Promise<void> {
  for (const cell of await cells.all()) {
    const { text, overflow, brokenWords } = await cell.evaluate((el) => {
      const doc = el.ownerDocument;
      // Text kept for screen readers alone (clipped and placed absolutely: "Signed in:", a hidden head) is
      // not shown, so not cut; nor is what a closed <details> holds (laid out, not rendered).
      const hidden = (node: typeof el | null): boolean => {
        if (node !== null && !node.checkVisibility()) return true;
        for (let e = node; e !== null && e !== el.parentElement; e = e.parentElement) {
          const style = doc.defaultView?.getComputedStyle(e);
          if (style?.position === 'absolute' && style.clip !== 'auto') return true;
        }
        return false;
      };
      // Every element's own overflow, and the shown text's extent beyond the cell's box (an empty cell has none).
      let most = 0;
      for (const inner of [el, ...Array.from(el.querySelectorAll('*'))])
        if (inner.clientWidth > 0 && !hidden(inner)) most = Math.max(most, inner.scrollWidth - inner.clientWidth);
      const box = el.getBoundingClientRect();
      const texts = doc.createTreeWalker(el, 4);
      for (let node = texts.nextNode(); node; node = texts.nextNode()) {
        if ((node.nodeValue ?? '').trim() === '' || hidden(node.parentElement)) continue;
        const text = doc.createRange();
        text.selectNodeContents(node);
        for (const r of Array.from(text.getClientRects() as ArrayLike<{ width: number; left: number; right: number }>)) {
          if (r.width > 0) most = Math.max(most, Math.round(r.right - box.right), Math.round(box.left - r.left));
        }
      }
      // A chip's or a status badge's words each on one line ("Restoc / k", "Awaitin / g" are not).
      const broken: string[] = [];
      for (const chip of Array.from(el.querySelectorAll('.disposition-chip, .badge'))) {
        const walker = doc.createTreeWalker(chip, 4);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const value = node.nodeValue ?? '';
          for (const match of value.matchAll(/\S+/g)) {
            const word = doc.createRange();
            word.setStart(node, match.index);
            word.setEnd(node, match.index + match[0].length);
            const lines = new Set(
              Array.from(word.getClientRects() as ArrayLike<{ width: number; top: number }>)
                .filter((r) => r.width > 0)
                .map((r) => Math.round(r.top)),
            );
            if (lines.size > 1) broken.push(match[0]);
          }
        }
      }
      // A cell of fields is named by what they hold.
      const values = Array.from(el.querySelectorAll('input') as ArrayLike<{ value: string }>).map((input) => input.value);
      return { text: [el.textContent ?? '', ...values].filter(Boolean).join(' '), overflow: most, brokenWords: broken };
    });
    expect(overflow, `"${text}" is cut off`).toBeLessThanOrEqual(0);
    expect(brokenWords, `"${text}": words broken over two lines`).toEqual([]);
  }
}

/** The buttons of a row, left to right, each ending before the next begins. */
export async function expectSideBySide(buttons: Locator): Promise<void> {
  const boxes = (await Promise.all((await buttons.all()).map(async (b) => ({ name: (await b.textContent()) ?? '', box: await b.boundingBox() })))).filter(
    (b) => b.box !== null,
  );
  for (let i = 1; i < boxes.length; i += 1) {
    const [before, after] = [boxes[i - 1], boxes[i]];
    expect((before?.box?.x ?? 0) + (before?.box?.width ?? 0), `"${before?.name}" runs under "${after?.name}"`).toBeLessThanOrEqual(after?.box?.x ?? 0);
  }
}

/** What expectPlaceholderWhole reads of a field and its page (the tests are compiled without the DOM's types). */
interface FieldInPage {
  placeholder: string;
  clientWidth: number;
  ownerDocument: {
    defaultView: { getComputedStyle(el: unknown, pseudo?: string): { font: string; paddingLeft: string; paddingRight: string } } | null;
    createElement(tag: 'canvas'): { getContext(kind: '2d'): { font: string; measureText(text: string): { width: number } } | null };
  };
}

/** A field's placeholder reads whole: its text, in its font, is no wider than the field's content box. */
export async function expectPlaceholderWhole(field: Locator): Promise<void> {
  const { placeholder, text, room } = await field.evaluate((el) => {
    const input = el as unknown as FieldInPage;
    const view = input.ownerDocument.defaultView;
    const style = view?.getComputedStyle(input);
    const context = input.ownerDocument.createElement('canvas').getContext('2d');
    // The placeholder's own font where a style gives it one (a smaller one on a handheld).
    if (context) context.font = view?.getComputedStyle(input, '::placeholder').font || (style?.font ?? '');
    const room = input.clientWidth - parseFloat(style?.paddingLeft ?? '0') - parseFloat(style?.paddingRight ?? '0');
    return { placeholder: input.placeholder, text: context?.measureText(input.placeholder).width ?? Infinity, room };
  });
  expect(text, `the placeholder "${placeholder}" is cut (${Math.round(text)} px of text in ${Math.round(room)} px)`).toBeLessThanOrEqual(room);
}
