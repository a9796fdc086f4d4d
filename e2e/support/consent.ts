/**
 * The privacy policy step of a first login (server decision 0022): a new person reads the operator's policy
 * and accepts it before his account exists. Journeys that log a new person in on screen pass through it.
 */
import type { Page } from '@playwright/test';
import { expect } from './test';

/** A new person: the policy must be shown; «Принимаю» creates the account and logs in. */
export async function acceptPrivacyPolicy(page: Page): Promise<void> {
  const step = page.getByTestId('consent-step');
  await expect(step).toBeVisible();
  await expect(page.getByTestId('privacy-policy-text')).toContainText('Какие данные хранятся');
  await page.getByRole('button', { name: 'Принимаю', exact: true }).click();
  await expect(step).toHaveCount(0);
}

/** Someone who may have consented already (a seeded administrator): accept the policy only when it is shown. */
export async function acceptPrivacyPolicyIfAsked(page: Page, home: RegExp): Promise<void> {
  const step = page.getByTestId('consent-step');
  await Promise.race([page.waitForURL(home), step.waitFor({ state: 'visible' })]);
  if (await step.isVisible()) {
    await page.getByRole('button', { name: 'Принимаю', exact: true }).click();
  }
  await expect(page).toHaveURL(home);
}
