/**
 * The app's one service worker, /sw.js (public/sw.js; issue 43, docs/decisions/0035): Web Push and the shell
 * that opens with no network. Registered by the whole app once its first screen is drawn (never by the
 * sign-in's light entry: the /login budget), then told which hashed assets this page loaded, so that the next
 * open without a network finds them. A new version takes over at the next open (the worker never skips
 * waiting).
 */
export const SERVICE_WORKER_URL = '/sw.js';

export function serviceWorkerSupported(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator && window.isSecureContext;
}

function loadedAssets(): string[] {
  try {
    return performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((name) => new URL(name).pathname.startsWith('/assets/'));
  } catch {
    return [];
  }
}

let registering: Promise<ServiceWorkerRegistration | null> | null = null;

/** Registers the worker (once per page) and hands it the page's assets; null where there is none. */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!serviceWorkerSupported()) return Promise.resolve(null);
  registering ??= navigator.serviceWorker
    .register(SERVICE_WORKER_URL, { scope: '/' })
    .then(async () => {
      const ready = await navigator.serviceWorker.ready;
      ready.active?.postMessage({ type: 'cache-assets', urls: [location.href, ...loadedAssets()] });
      return ready;
    })
    .catch(() => null);
  return registering;
}

/** After the first screen: when the page has loaded and the main thread is idle. */
export function registerServiceWorkerLater(): void {
  if (!serviceWorkerSupported()) return;
  const start = () => {
    const idle = (window as { requestIdleCallback?: (callback: () => void) => void }).requestIdleCallback;
    if (idle) idle(() => void registerServiceWorker());
    else setTimeout(() => void registerServiceWorker(), 1000);
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
