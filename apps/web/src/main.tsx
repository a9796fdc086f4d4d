import '@mantine/core/styles.css';
import './app/theme.css';
import { setNonce } from 'get-nonce';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProvider } from './app/provider';
import { createAppRouter } from './app/router';
import { OfflineBanner } from './components/offline-banner';
import { readStyleNonce } from './lib/csp-nonce';

const styleNonce = readStyleNonce();
// react-remove-scroll (Mantine's modals and drawers) writes its <style> with get-nonce's nonce.
if (styleNonce) setNonce(styleNonce);

const router = createAppRouter();

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <AppProvider styleNonce={styleNonce}>
        <OfflineBanner />
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>,
  );
