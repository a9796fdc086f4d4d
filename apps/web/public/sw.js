/*
 * Propusk's one service worker (issue 43, docs/decisions/0035): Web Push notifications and the app shell
 * that opens with no network. Hand-written (no build step): registered by src/lib/service-worker.ts after
 * the first screen. A new version waits until every tab of the old one is closed and takes over at the next
 * open (no skipWaiting): never in the middle of an action.
 *
 * Cached: the page (the last one the server sent, with its own CSP header and nonce) and the hashed assets
 * the app loaded, nothing else. API answers are never cached here: the shell's offline data is the app's own
 * small snapshot of the resident's barriers (src/lib/offline-snapshot.ts).
 */
const SHELL = 'propusk-shell-v1';
const PAGE = '/__shell__';

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(SHELL).then(async (cache) => {
      try {
        const response = await fetch('/start', { credentials: 'same-origin' });
        if (response.ok) await cache.put(PAGE, response);
      } catch {
        // Offline at install: the next navigation fills it.
      }
    }),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== SHELL).map((key) => caches.delete(key))))
      // Pages open at the first install are served from now on (a new version activates only when no page
      // of the old one is open, so this never swaps a worker under a page in use).
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/') || url.pathname === '/metrics') return;
  if (request.mode === 'navigate') {
    // The network first (a fresh page, a fresh nonce); without it, the last page.
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok && response.headers.get('content-type')?.startsWith('text/html')) {
            const copy = response.clone();
            caches.open(SHELL).then((cache) => cache.put(PAGE, copy));
          }
          return response;
        })
        .catch(async () => (await caches.match(PAGE)) ?? Response.error()),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    // Hashed names never change: the cache first, then the network (kept for the next offline open).
    event.respondWith(
      caches.match(request).then(
        (cached) =>
          cached ??
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              caches.open(SHELL).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
  }
});

self.addEventListener('push', (event) => {
  let payload = null;
  try {
    payload = event.data ? event.data.json() : null;
  } catch {
    payload = null;
  }
  if (!payload || typeof payload.title !== 'string') return;
  const url = typeof payload.url === 'string' && payload.url.startsWith('/') ? payload.url : '/start';
  event.waitUntil(
    self.registration.showNotification(payload.title, {
      body: typeof payload.body === 'string' ? payload.body : '',
      icon: '/icon-192.png',
      badge: '/icon-192.png',
      lang: 'ru',
      tag: `${payload.kind}:${url}`,
      data: { url },
    }),
  );
});

/** A tab of the app is focused on the notification's screen, or a new one opens there. */
async function openScreen(path) {
  const url = new URL(path, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (open) {
    await open.focus().catch(() => {});
    const navigated = await open.navigate(url).catch(() => null);
    if (navigated) return;
  }
  await self.clients.openWindow(url);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = event.notification.data?.url ?? '/start';
  const opening = openScreen(path);
  // A click dispatched by script (not the system's) cannot extend its event; the screen opens all the same.
  try {
    event.waitUntil(opening);
  } catch {}
});

/** The page names the hashed assets it has loaded (before this worker controlled it): kept for offline. */
self.addEventListener('message', (event) => {
  const data = event.data;
  if (data?.type !== 'cache-assets' || !Array.isArray(data.urls)) return;
  const urls = data.urls
    .filter((value) => typeof value === 'string')
    .map((value) => new URL(value, self.location.origin))
    .filter((url) => url.origin === self.location.origin && url.pathname.startsWith('/assets/'))
    .slice(0, 200)
    .map((url) => url.pathname);
  const caching = caches.open(SHELL).then(async (cache) => {
    for (const url of urls) if (!(await cache.match(url))) await cache.add(url).catch(() => {});
  });
  try {
    event.waitUntil(caching);
  } catch {}
});
