import './app/styles/sign-in.css';
import './app/theme.css';
import { setNonce } from 'get-nonce';
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { AppProvider } from './app/provider';
import { LoginShell } from './app/shell/login-shell';
import { openShellAt, startsInShell } from './app/shell/shell-history';
import { ErrorScreen } from './components/error-screen';
import { OfflineBanner } from './components/offline-banner';
import { readStyleNonce } from './lib/csp-nonce';

const styleNonce = readStyleNonce();
// react-remove-scroll (Mantine's modals and drawers) writes its <style> with get-nonce's nonce.
if (styleNonce) setNonce(styleNonce);

/** The whole app (the data router and every route) loads only when a screen past the sign-in asks for it. */
function startFullApp(root: Root) {
  import('./app/full-app')
    .then((module) => module.renderFullApp(root, styleNonce))
    .catch(() => {
      // Its code could not be fetched (offline, or a new build replaced it): «Нет связи», reloaded when back.
      root.render(
        <AppProvider styleNonce={styleNonce}>
          <ErrorScreen kind="network" />
        </AppProvider>,
      );
    });
}

const container = document.getElementById('root');
if (container) {
  const root = createRoot(container);
  if (startsInShell()) {
    // A visitor without a session meets the sign-in screens first: they come without the router (issue 32 item 8).
    openShellAt();
    root.render(
      <StrictMode>
        <AppProvider styleNonce={styleNonce}>
          <OfflineBanner />
          <LoginShell onLeave={() => startFullApp(root)} />
        </AppProvider>
      </StrictMode>,
    );
  } else {
    // A returning resident's /start reads go out now, not after the router's chunk (issue 32 item 8). Their code is
    // a chunk of its own that the page's inline script fetched alongside the entry (app/shell/full-app-preload.ts):
    // /login does not carry it. Not fetched (offline): the whole app's own import below says so.
    import('./app/routes/user/resident-home').then((home) => home.startResidentHomeEarly()).catch(() => {});
    startFullApp(root);
  }
}
