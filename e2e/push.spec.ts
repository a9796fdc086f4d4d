import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { browserKeys, decryptAes128gcm, startPushService } from '../apps/server/test/push-helpers';
import { newProjectPage, runDigits } from './admin-support';
import { ApiAs, barrierWithResident, openLoggedIn, ownerSession, type Session } from './support/api';
import { PHONE_CONTEXT } from './support/environment';
import { expect, test } from './support/test';

/**
 * Issue 43 at 390×844. Web Push: the resident turns notifications on in his profile (the browser's push
 * subscription is stubbed at the API boundary: `PushManager.subscribe` answers a subscription whose endpoint
 * is a push service run by this test, with keys made here); the owner rejects his request; the server
 * encrypts the push for that subscription and posts it to the push service, where it is decrypted with the
 * subscription's keys (RFC 8291) and handed to the service worker with the Chrome DevTools Protocol; the
 * notification is shown and opens the screen it names. Then the app opened with the network off shows his
 * gate's call from the last data.
 */
test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let owner: ApiAs;
let resident: Session;
let page: Page;
let barrier: { id: number; address: string; devicePhone: string };
let push: Awaited<ReturnType<typeof startPushService>>;
const keys = browserKeys();

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  owner = new ApiAs(api, await ownerSession(api));
  const run = runDigits(testInfo, 5);
  ({ barrier, resident } = await barrierWithResident(api, owner, {
    address: `г Москва, ул Уведомлений, д ${run}`,
    devicePhone: `+7806${run}43`,
  }));
  push = await startPushService();
  page = await newProjectPage(browser, testInfo);
  await page.context().grantPermissions(['notifications'], { origin: PHONE_CONTEXT.baseURL });
  // The browser's push service is ours: the subscription the page gets names it and carries our keys.
  await page.addInitScript(
    ({ endpoint, p256dh, auth }) => {
      let subscribed: PushSubscription | null = null;
      const make = (applicationServerKey: BufferSource | null) =>
        ({
          endpoint,
          expirationTime: null,
          options: { applicationServerKey, userVisibleOnly: true },
          toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
          unsubscribe: async () => {
            subscribed = null;
            return true;
          },
          getKey: () => null,
        }) as unknown as PushSubscription;
      PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
        const key = options?.applicationServerKey;
        subscribed = make(key instanceof Uint8Array ? (key.buffer as ArrayBuffer) : null);
        return subscribed;
      };
      PushManager.prototype.getSubscription = async () => subscribed;
    },
    { endpoint: `${push.url}/resident`, p256dh: keys.p256dh, auth: keys.authText },
  );
});

test.afterAll(async () => {
  await page.context().close();
  await push.close();
  await api.dispose();
});

test('notifications on in the profile; a push reaches the service worker, is shown and opens its screen', async () => {
  await openLoggedIn(page, resident, '/user');
  const settings = page.getByTestId('notification-settings');
  await expect(settings.getByRole('heading', { name: 'Уведомления' })).toBeVisible();
  await settings.getByRole('button', { name: 'Включить уведомления на этом устройстве' }).click();
  await expect(settings.getByText('На этом устройстве уведомления включены.')).toBeVisible();
  await expect(settings.getByText('Устройств с уведомлениями: 1')).toBeVisible();
  await expect(settings.getByRole('switch', { name: 'Моя заявка отклонена' })).toBeChecked();

  // He asks for another barrier; its owner rejects the request.
  const other = await owner.post('/api/admin/barriers/', {
    address: `${barrier.address}, корпус 2`,
    device_phone: barrier.devicePhone.replace(/43$/, '44'),
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 20,
    is_public: true,
  });
  const asResident = new ApiAs(api, resident);
  const me = await asResident.get('/api/users/me/');
  const asked = await asResident.post('/api/access_requests/', { user: me.id, barrier: other.id });
  await owner.patch(`/api/admin/access_requests/${asked.id}/`, { status: 'rejected' });

  // The server's job queue posts the encrypted push to the push service.
  await expect.poll(() => push.received.length, { timeout: 20_000 }).toBeGreaterThan(0);
  const received = push.received[0]!;
  expect(received.headers['content-encoding']).toBe('aes128gcm');
  const payload = JSON.parse(decryptAes128gcm(received.body, keys));
  expect(payload).toMatchObject({ kind: 'request_rejected', title: 'Заявка отклонена', url: '/requests' });
  expect(payload.body).toContain('корпус 2');

  // The push service hands it to the browser's service worker.
  const cdp = await page.context().newCDPSession(page);
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrations.filter((entry) => !entry.isDeleted).length).toBeGreaterThan(0);
  const registration = registrations.find((entry) => !entry.isDeleted)!;
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: new URL(PHONE_CONTEXT.baseURL!).origin,
    registrationId: registration.registrationId,
    data: JSON.stringify(payload),
  });
  const shown = () =>
    page.evaluate(async () => {
      const ready = await navigator.serviceWorker.ready;
      return (await ready.getNotifications()).map((shown) => ({
        title: shown.title,
        body: shown.body,
        url: (shown.data as { url: string }).url,
      }));
    });
  await expect.poll(shown).toEqual([{ title: 'Заявка отклонена', body: payload.body, url: '/requests' }]);

  // Its tap: the worker's click handler brings the app to the screen the notification names.
  const worker = page.context().serviceWorkers()[0] ?? (await page.context().waitForEvent('serviceworker'));
  await worker.evaluate(async () => {
    const scope = self as unknown as ServiceWorkerGlobalScope;
    const [notification] = await scope.registration.getNotifications();
    scope.dispatchEvent(new NotificationEvent('notificationclick', { notification: notification! }));
  });
  await expect(page).toHaveURL(/\/requests$/);
  await expect(page.getByText('корпус 2').first()).toBeVisible();
  await cdp.detach();
});

test('the app opened with the network off shows his gate and its call from the last data', async () => {
  await page.goto('/barriers');
  await expect(page.getByText(barrier.address, { exact: true }).first()).toBeVisible();
  // The worker controls the page and holds the page and every asset it loaded.
  await expect
    .poll(() =>
      page.evaluate(async () => {
        if (!navigator.serviceWorker.controller) return 'not controlled';
        const loaded = performance
          .getEntriesByType('resource')
          .map((entry) => new URL(entry.name).pathname)
          .filter((path) => path.startsWith('/assets/'));
        const cache = await caches.open('propusk-shell-v1');
        const missing = [];
        for (const path of loaded) if (!(await cache.match(path))) missing.push(path);
        return missing.length === 0 && (await cache.match('/__shell__'))
          ? 'ready'
          : `missing ${missing.length}`;
      }),
    )
    .toBe('ready');

  await page.context().setOffline(true);
  await page.reload();
  const gates = page.getByTestId('offline-gates');
  await expect(gates).toBeVisible();
  await expect(gates).toContainText(/нет связи, данные от \d{2}:\d{2}/);
  await expect(gates).toContainText(barrier.address);
  await expect(gates.getByRole('link', { name: /Позвонить на шлагбаум/ })).toHaveAttribute(
    'href',
    `tel:${barrier.devicePhone}`,
  );
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  await page.context().setOffline(false);
});

/** Hands a push payload to the page's service worker as the browser's push service would. */
async function deliverToWorker(payload: unknown) {
  const cdp = await page.context().newCDPSession(page);
  const registrations: { registrationId: string; isDeleted: boolean }[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrations.filter((entry) => !entry.isDeleted).length).toBeGreaterThan(0);
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: new URL(PHONE_CONTEXT.baseURL!).origin,
    registrationId: registrations.find((entry) => !entry.isDeleted)!.registrationId,
    data: JSON.stringify(payload),
  });
  await cdp.detach();
}

test('a notification about one barrier opens that barrier’s screen', async () => {
  // He asks for a third barrier; its owner accepts: the push names his screen of that barrier.
  const third = await owner.post('/api/admin/barriers/', {
    address: `${barrier.address}, корпус 3`,
    device_phone: barrier.devicePhone.replace(/43$/, '45'),
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 20,
    is_public: true,
  });
  const asResident = new ApiAs(api, resident);
  const me = await asResident.get('/api/users/me/');
  const asked = await asResident.post('/api/access_requests/', { user: me.id, barrier: third.id });
  const from = push.received.length;
  await owner.patch(`/api/admin/access_requests/${asked.id}/`, { status: 'accepted' });
  await expect.poll(() => push.received.length - from, { timeout: 20_000 }).toBeGreaterThan(0);
  const payload = push.received
    .slice(from)
    .map((received) => JSON.parse(decryptAes128gcm(received.body, keys)))
    .find((candidate) => candidate.kind === 'request_accepted');
  expect(payload).toMatchObject({ url: `/mybarrier?barrier_id=${third.id}` });

  await page.goto('/user');
  await deliverToWorker(payload);
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const ready = await navigator.serviceWorker.ready;
        return (await ready.getNotifications()).map((shown) => (shown.data as { url: string }).url);
      }),
    )
    .toContain(payload.url);
  const worker = page.context().serviceWorkers()[0] ?? (await page.context().waitForEvent('serviceworker'));
  await worker.evaluate(async (url) => {
    const scope = self as unknown as ServiceWorkerGlobalScope;
    const shown = await scope.registration.getNotifications();
    const notification = shown.find((candidate) => candidate.data?.url === url);
    scope.dispatchEvent(new NotificationEvent('notificationclick', { notification: notification! }));
  }, payload.url);
  await expect(page).toHaveURL(new RegExp(`/mybarrier\\?barrier_id=${third.id}$`));
  await expect(page.getByRole('heading', { name: 'Мой шлагбаум' })).toBeVisible();
  await expect(page.getByText(`${barrier.address}, корпус 3`).first()).toBeVisible();
  await expect(page.getByText('Шлагбаум не найден')).toHaveCount(0);
});

test('the app is installable: Chrome finds its manifest complete and no installability error', async ({
  playwright,
}, testInfo) => {
  // Chrome never installs from an incognito profile, which every Playwright context is: a real profile here.
  const profile = mkdtempSync(path.join(tmpdir(), 'propusk-install-'));
  const launch = testInfo.project.use.launchOptions ?? {};
  const context = await playwright.chromium.launchPersistentContext(profile, {
    ...PHONE_CONTEXT,
    executablePath: launch.executablePath,
    args: launch.args,
  });
  try {
    const installed = context.pages()[0] ?? (await context.newPage());
    await openLoggedIn(installed, resident, '/user');
    // The worker registers after the first screen and controls the page once active.
    await expect
      .poll(() => installed.evaluate(async () => Boolean((await navigator.serviceWorker.ready).active)), {
        timeout: 15_000,
      })
      .toBe(true);
    const cdp = await context.newCDPSession(installed);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.errors).toEqual([]);
    const data = JSON.parse(manifest.data ?? '{}');
    expect(data).toMatchObject({
      name: 'Пропуск: управление шлагбаумами',
      short_name: 'Пропуск',
      lang: 'ru',
      start_url: '/',
      display: 'standalone',
      theme_color: '#1971c2',
      background_color: '#f8f9fa',
    });
    expect(data.icons).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ src: '/icon-192.png', sizes: '192x192', type: 'image/png' }),
        expect.objectContaining({ src: '/icon-512.png', sizes: '512x512', type: 'image/png' }),
        expect.objectContaining({ sizes: '512x512', type: 'image/png', purpose: 'maskable' }),
      ]),
    );
    await expect
      .poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors, {
        timeout: 15_000,
      })
      .toEqual([]);
    await cdp.detach();
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
