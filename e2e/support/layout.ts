/**
 * Layout checks of a screen as a user's eye and finger meet it: no status badge or button whose text is cut
 * ("ОЖИД…"), every visible button, link and icon button at least 44×44 CSS px (a finger's target, WCAG 2.5.5),
 * and every icon button named (aria-label) for a screen reader.
 */
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { E2E } from './environment';

export const MIN_TARGET_PX = 44;

export interface LayoutProblem {
  problem: 'truncated' | 'small' | 'unnamed';
  what: string;
  size?: string;
}

/** Runs in the page: the problems of what is on screen now (hidden elements and dialogs' backdrops aside). */
function collectLayoutProblems(minTarget: number): LayoutProblem[] {
  const problems: LayoutProblem[] = [];
  const isVisible = (element: Element) => {
    const rect = element.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) return false;
    const style = window.getComputedStyle(element);
    return style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) > 0;
  };
  const describe = (element: Element) =>
    `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') || element.textContent || '').trim().slice(0, 60)}"`;
  const isCut = (element: Element) =>
    element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1;

  // Text that does not fit: a badge, a button's label (Mantine's inner label span), the button itself.
  const texts = document.querySelectorAll(
    '.mantine-Badge-root, .mantine-Badge-label, .mantine-Button-label, .mantine-Button-inner, button, a',
  );
  for (const element of texts) {
    if (!isVisible(element)) continue;
    const style = window.getComputedStyle(element);
    const clips = style.overflow !== 'visible' || style.textOverflow === 'ellipsis';
    if (clips && isCut(element)) {
      const owner = element.closest('.mantine-Badge-root, button, a') ?? element;
      problems.push({ problem: 'truncated', what: describe(owner) });
    }
  }

  const targets = document.querySelectorAll(
    'button, a[href], [role="button"], [role="tab"], input[type="checkbox"], input[type="radio"]',
  );
  for (const element of targets) {
    if (!isVisible(element)) continue;
    // A checkbox or radio's target is its label row (Mantine draws the input inside a larger label).
    const target =
      element instanceof HTMLInputElement
        ? (element.closest(
            'label, .mantine-Checkbox-body, .mantine-Radio-body, .mantine-Switch-body, .mantine-SegmentedControl-control',
          ) ?? element)
        : element;
    const rect = target.getBoundingClientRect();
    if (rect.width + 0.5 < minTarget || rect.height + 0.5 < minTarget) {
      problems.push({
        problem: 'small',
        what: describe(element),
        size: `${Math.round(rect.width)}×${Math.round(rect.height)}`,
      });
    }
    const hasText = (element.textContent ?? '').trim().length > 0;
    const name =
      element.getAttribute('aria-label') ||
      (element.getAttribute('aria-labelledby') &&
        document.getElementById(element.getAttribute('aria-labelledby') ?? '')?.textContent) ||
      element.getAttribute('title');
    if (!hasText && !name && !(element instanceof HTMLInputElement)) {
      problems.push({ problem: 'unnamed', what: element.outerHTML.slice(0, 120) });
    }
  }
  // Buttons a mouse reaches but the keyboard cannot (tabindex -1 on an icon button). Tabs are reached with the
  // arrow keys (roving tabindex), so they are not among them.
  for (const element of document.querySelectorAll('button[tabindex="-1"]:not([role="tab"])')) {
    if (isVisible(element)) problems.push({ problem: 'unnamed', what: `${describe(element)} (no keyboard)` });
  }
  return problems;
}

/**
 * Screenshot `name` into e2e/.artifacts/screens/ (prefixed `after-`, or E2E_SCREENS_PREFIX to keep a run of an
 * older build beside it) and fail on any layout problem of the screen.
 */
export async function checkLayout(page: Page, name: string): Promise<void> {
  const prefix = process.env.E2E_SCREENS_PREFIX ?? 'after';
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await expect(page.getByLabel('Загрузка')).toHaveCount(0);
  await page.screenshot({
    path: path.join(E2E.artifacts, 'screens', `${prefix}-${name}.png`),
    fullPage: true,
  });
  const problems = await page.evaluate(collectLayoutProblems, MIN_TARGET_PX);
  expect.soft(problems, `layout problems on ${name}`).toEqual([]);
}
