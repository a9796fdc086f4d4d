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

/** A key of STORAGE_KEYS, or the offline snapshot's own key (cleared with the session). */
export function writeStored(key: StorageKey | 'offline_barriers', value: string | null | undefined): void {
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

/**
 * Logging out or losing the session: access token, refresh token and phone go (spec.md section 2, /user), and the
 * resident's last barriers kept for the app opened offline (lib/offline-snapshot.ts) go with him, and so do the
 * forms kept from an ended session (lib/form-drafts.ts; a session that ended keeps them after this).
 */
export function clearSession(): void {
  for (const key of [...STORAGE_KEYS, 'offline_barriers'] as const) writeStored(key, null);
  try {
    window.sessionStorage.removeItem(FORM_DRAFTS_KEY);
  } catch {
    // Nothing was kept.
  }
}

/** Where lib/form-drafts.ts keeps the forms of an ended session (here: the sign-in screens' code stays light). */
export const FORM_DRAFTS_KEY = 'form_drafts';
