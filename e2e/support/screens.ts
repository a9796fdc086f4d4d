/**
 * Every screen a journey visits is checked the same way: a screenshot kept in e2e/.artifacts/screenshots/, no
 * Latin sentence shown (support/latin-text.ts), and axe finds no serious or critical violation.
 */
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { E2E } from './environment';
import { collectScreenTexts, findLatinTexts } from './latin-text';

export async function checkScreen(page: Page, name: string): Promise<void> {
  await checkScreenTexts(page, name);
  // Every rule runs; only the violations come back whole (the passes and the incomplete ones carry one node
  // each instead of all): the journeys read nothing else, and the full results were megabytes a screen for the
  // runner to parse.
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
      why: violation.nodes[0]?.failureSummary,
    }));
  expect(serious, `axe violations on ${name}`).toEqual([]);
}

/**
 * The screenshot and the Latin check without axe (a second or two a screen): for more states of a screen that
 * checkScreen has seen, and for the texts of an open option list.
 */
export async function checkScreenTexts(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await expect(page.getByLabel('Загрузка')).toHaveCount(0);
  await page.screenshot({ path: path.join(E2E.screenshots, `${name}.png`), fullPage: true });
  // Soft: a journey goes on and reports every screen that shows Latin, not only the first.
  expect.soft(findLatinTexts(await page.evaluate(collectScreenTexts)), `Latin text on ${name}`).toEqual([]);
}
