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
  // The resident's last barriers kept for the app opened offline (lib/offline-snapshot.ts) go with him.
  try {
    window.localStorage.removeItem('offline_barriers');
  } catch {}
  writeStored('access_token', null);
  writeStored('refresh_token', null);
  writeStored('phone', null);
  writeStored('verification_token', null);
}
