import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { dropEarlyReads } from '../lib/api-client';
import { loadAllErrorTexts } from '../lib/errors';

// Two busy cores make a screen a second late now and then: wait up to 10 s for what a user would see. CI runs
// these beside the browser journeys and the PostgreSQL pass; a 3 s wait failed a web test there once (the
// stop of 2026-11-29, web tests exit 1, every file passing alone and in the next run). A wait that ends
// early costs nothing; one that never ends still fails, 10 s later.
configure({ asyncUtilTimeout: 10_000 });

// Mantine needs these browser APIs, which jsdom lacks.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView = () => {};

// Screens are rendered without the router, whose lazy routes load the whole error catalogue in the app.
beforeAll(() => loadAllErrorTexts());

afterEach(() => {
  cleanup();
  // A test's early reads (resident-home.ts) that nothing took must not answer the next test's screen.
  dropEarlyReads();
  window.localStorage.clear();
  // A screen kept after an ended session (return-after-login.ts, form-drafts.ts) is the test's own.
  window.sessionStorage.clear();
  // The address too: a router a test made starts where the last test's left the shared window otherwise.
  window.history.replaceState(null, '', '/');
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

// A Mantine transition (a modal or a popover closing) ends on a timer of up to a few hundred ms; one still
// pending when the file's jsdom is torn down fires into a missing `window` (an uncaught error that fails the
// run). Let them run out while the document still exists.
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 500));
});
