/**
 * The four values the client keeps across reloads (spec.md section 3, "Client storage keys"). Screens read
 * navigation state first and fall back to these, so reloading any screen still works.
 */
export const STORAGE_KEYS = ['verification_token', 'access_token', 'refresh_token', 'phone'] as const;
export type StorageKey = (typeof STORAGE_KEYS)[number];

export function readStored(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: StorageKey, value: string | null | undefined): void {
  try {
    if (value === null || value === undefined) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Private mode or a full quota: the session then lives only in navigation state.
  }
}

/** Stores both tokens after a login or a refresh. */
export function storeSession(session: {
  access_token?: string;
  refresh_token?: string;
  phone?: string;
}): void {
  if (session.access_token !== undefined) writeStored('access_token', session.access_token);
  if (session.refresh_token !== undefined) writeStored('refresh_token', session.refresh_token);
  if (session.phone !== undefined) writeStored('phone', session.phone);
}

/** Logging out or losing the session: access token, refresh token and phone go (spec.md section 2, /user). */
export function clearSession(): void {
  writeStored('access_token', null);
  writeStored('refresh_token', null);
  writeStored('phone', null);
  writeStored('verification_token', null);
}

const HOME_BARRIER_KEY = 'propusk.home-barrier';

/**
 * The barrier a returning resident was sent to (resident-home.ts): a loader's redirect carries no navigation
 * state, so /mybarrier falls back to this id, as screens fall back to stored values (spec.md section 2). Kept here, in
 * the first load's module, so that the login bundle gains no chunk of its own (its 150 KB budget).
 */
export function rememberHomeBarrier(barrierId: number): void {
  try {
    window.sessionStorage.setItem(HOME_BARRIER_KEY, String(barrierId));
  } catch {
    // Storage refused (private mode): /mybarrier then offers the list («К шлагбаумам»).
  }
}

export function homeBarrier(): number | null {
  try {
    const stored = Number.parseInt(window.sessionStorage.getItem(HOME_BARRIER_KEY) ?? '', 10);
    return Number.isSafeInteger(stored) && stored > 0 ? stored : null;
  } catch {
    return null;
  }
}
