import './styles/full-app.css';
import { StrictMode, startTransition } from 'react';
import type { Root } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { OfflineBanner } from '../components/offline-banner';
import { OfflineGates } from '../components/offline-gates';
import { registerServiceWorkerLater } from '../lib/service-worker';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

/**
 * The whole app: the data router with every route, under the app's providers. main.tsx renders it at once on
 * any route but the sign-in screens; the sign-in screens' light entry (shell/login-shell.tsx) hands over to it
 * when the person goes past them (issue 32 item 8).
 */
export function renderFullApp(root: Root, styleNonce: string | undefined): void {
  const router = createAppRouter();
  // A transition: React renders the tree in slices of a few milliseconds, yielding between them, instead of one
  // long task (the resident's first screen: Lighthouse's blocking time 150–270 ms before, 40–100 ms after; issue 32
  // item 8). What is drawn is the same; a screen handed over from the sign-in stays until the new one is ready.
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppProvider styleNonce={styleNonce}>
          <OfflineBanner />
          <OfflineGates />
          <RouterProvider router={router} />
        </AppProvider>
      </StrictMode>,
    ),
  );
  // Web Push and the shell that opens offline (issue 43): after the first screen, never on the sign-in's entry.
  registerServiceWorkerLater();
}
