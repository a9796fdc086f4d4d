/**
 * The scene of a serial journey file the barrier owner drives: his API (logged in once, support/api.ts) and one
 * phone page watched for CSP violations, made before the file's first test and closed after its last.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { ApiAs, ownerSession, type Session } from './api';
import { PHONE_CONTEXT } from './environment';
import { test, watchForCspViolations } from './test';

export interface OwnerScene {
  api: APIRequestContext;
  session: Session;
  owner: ApiAs;
  page: Page;
}

/** Registers the file's beforeAll and afterAll; `use` receives the scene once it is made. */
export function ownerScene(use: (scene: OwnerScene) => void): void {
  let scene: OwnerScene | undefined;
  test.beforeAll(async ({ browser, playwright }) => {
    const api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
    const session = await ownerSession(api);
    const context = await browser.newContext(PHONE_CONTEXT);
    watchForCspViolations(context);
    scene = { api, session, owner: new ApiAs(api, session), page: await context.newPage() };
    use(scene);
  });
  test.afterAll(async () => {
    await scene?.page.context().close();
    await scene?.api.dispose();
  });
}
