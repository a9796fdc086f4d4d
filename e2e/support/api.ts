/**
 * Setting the scene over HTTP where the journey is not about it: logging an administrator in to create
 * barriers or answer requests (the administrator screens are another issue's journeys), and logging a user in
 * without the screens when the journey starts later.
 */

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { type AdminKey, adminAccount, E2E, E2E_GATEWAY_SERVER } from './environment';
import { smsCount, waitForCode } from './sms';

export interface Session {
  phone: string;
  access_token: string;
  refresh_token: string;
}

async function json(response: Awaited<ReturnType<APIRequestContext['post']>>) {
  const body = await response.json().catch(() => ({}));
  if (!response.ok()) throw new Error(`${response.url()} → ${response.status()} ${JSON.stringify(body)}`);
  return body;
}

export async function loginOverApi(
  request: APIRequestContext,
  phone: string,
  password?: string,
): Promise<Session> {
  // An administrator's password step answers a nonce that binds it to this login (server decision 0012).
  const step = password
    ? await json(await request.post('/api/auth/admin/password_verification/', { data: { phone, password } }))
    : null;
  const before = smsCount(phone);
  const { verification_token } = await json(
    await request.post('/api/auth/codes/', { data: { phone, mode: 'login' } }),
  );
  const code = await waitForCode(phone, before);
  const verified = await json(
    await request.patch('/api/auth/codes/verify/', { data: { phone, code, verification_token } }),
  );
  // The scene's people accept the operator's policy as our client's first login does (server decision 0022).
  const consent = verified.consent_required ? { consent_version: verified.policy_version } : {};
  const session = await json(
    await request.post('/api/auth/login/', {
      data: step
        ? { phone, verification_token, password_nonce: step.password_nonce, ...consent }
        : { phone, verification_token, ...consent },
    }),
  );
  return { phone, access_token: session.access_token, refresh_token: session.refresh_token };
}

/** A kept session is reused while its access token lives at least this long (one journey file's length). */
const SESSION_REUSE_MIN_SECONDS = 8 * 60;

/** Seconds until the session's access token (a JWT) expires; 0 when it cannot be read. */
function accessSecondsLeft(session: Session): number {
  try {
    const payload = JSON.parse(Buffer.from(session.access_token.split('.')[1] ?? '', 'base64url').toString());
    return typeof payload.exp === 'number' ? payload.exp - Date.now() / 1000 : 0;
  } catch {
    return 0;
  }
}

/**
 * An administrator's session (the barrier owner's, an operator's, a dispatcher's), logged in once per server
 * run and kept in a file so every journey file can reuse it (a second login within 60 s would hit the code
 * cooldown).
 */
export async function adminSession(request: APIRequestContext, key: AdminKey): Promise<Session> {
  const admin = adminAccount(key);
  return keptSession(request, path.join(E2E.own, `${key}-session.json`), admin.phone, admin.password);
}

/**
 * The administrator of the second journey server (E2E_GATEWAY_SERVER), kept as `adminSession` keeps the first
 * server's: the journeys that use that server may run within a minute of each other. `request` is on that server;
 * support/gateway-server.ts removes the file when it starts the server on a new database.
 */
export const gatewayAdminSession = (request: APIRequestContext): Promise<Session> =>
  keptSession(
    request,
    GATEWAY_ADMIN_SESSION_FILE,
    E2E_GATEWAY_SERVER.admin.phone,
    E2E_GATEWAY_SERVER.admin.password,
  );

export const GATEWAY_ADMIN_SESSION_FILE = path.join(E2E.own, 'gateway-admin-session.json');

async function keptSession(
  request: APIRequestContext,
  file: string,
  phone: string,
  password: string,
): Promise<Session> {
  const saved = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Session) : null;
  // Reused only while its access token has a while to live (15 min in all): a journey opens the app with
  // these tokens, and an access token that expires during it makes the app refresh, which rotates the refresh
  // token the file holds (the next journey's refresh would then be a reuse, and end the session). On a slow
  // machine the journeys outlast the first token.
  if (saved && accessSecondsLeft(saved) > SESSION_REUSE_MIN_SECONDS) {
    const check = await request.get('/api/users/me/', {
      headers: { authorization: `Bearer ${saved.access_token}` },
    });
    if (check.ok()) {
      // A session kept from a run before the policy existed, or from before a new version: consent now.
      const me = await check.json();
      if (me.consent_required) {
        await json(
          await request.post('/api/users/me/consent/', {
            headers: { authorization: `Bearer ${saved.access_token}` },
            data: { policy_version: me.policy_version },
          }),
        );
      }
      return saved;
    }
  }
  const session = await loginOverApi(request, phone, password);
  writeFileSync(file, JSON.stringify(session));
  return session;
}

/** The barrier owner's session (see `adminSession`). */
export const ownerSession = (request: APIRequestContext): Promise<Session> => adminSession(request, 'owner');

export class ApiAs {
  constructor(
    private readonly request: APIRequestContext,
    readonly session: Session,
  ) {}

  private headers() {
    return { authorization: `Bearer ${this.session.access_token}` };
  }

  async get(url: string) {
    return json(await this.request.get(url, { headers: this.headers() }));
  }
  async post(url: string, data: unknown) {
    return json(await this.request.post(url, { headers: this.headers(), data }));
  }
  async patch(url: string, data: unknown) {
    return json(await this.request.patch(url, { headers: this.headers(), data }));
  }
}

/**
 * A public RTU5025 barrier of the owner with one resident who asked for access and was accepted (over the API):
 * the set-up of journeys about what a resident sees of his barrier.
 */
export async function barrierWithResident(
  request: APIRequestContext,
  owner: ApiAs,
  where: { address: string; devicePhone: string },
): Promise<{ barrier: { id: number; address: string; devicePhone: string }; resident: Session }> {
  const created = await owner.post('/api/admin/barriers/', {
    address: where.address,
    device_phone: where.devicePhone,
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 20,
    is_public: true,
  });
  const resident = await loginOverApi(request, uniquePhone());
  const asResident = new ApiAs(request, resident);
  const residentId = (await asResident.get('/api/users/me/')).id;
  const asked = await asResident.post('/api/access_requests/', { user: residentId, barrier: created.id });
  await owner.patch(`/api/admin/access_requests/${asked.id}/`, { status: 'accepted' });
  return { barrier: { id: created.id, address: created.address, devicePhone: where.devicePhone }, resident };
}

/** Opens the app already logged in (tokens and phone in localStorage, as after the login screens). */
export async function openLoggedIn(page: Page, session: Session, path: string): Promise<void> {
  await page.goto('/login');
  await page.evaluate((stored) => {
    window.localStorage.setItem('access_token', stored.access_token);
    window.localStorage.setItem('refresh_token', stored.refresh_token);
    window.localStorage.setItem('phone', stored.phone);
  }, session);
  await page.goto(path);
}

let phoneCounter = 0;
/** A fresh number per journey: codes have a 60 s cooldown per phone and mode. */
export function uniquePhone(): string {
  phoneCounter += 1;
  const tail = `${Date.now() % 10_000_000}`.padStart(7, '0');
  return `+7915${tail.slice(0, 5)}${String(phoneCounter).padStart(2, '0')}`.slice(0, 12);
}
