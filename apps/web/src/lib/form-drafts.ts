/**
 * A half-filled form survives an ended session (issue 41): the forms on screen register what they hold; when a
 * refused refresh ends the session (api-client.ts → the router's handler) their values are kept in
 * sessionStorage with the number of the session, and the same form on the same screen (return-after-login.ts
 * brings him back there) takes them after the same number logs in again, within half an hour. Taken once;
 * cleared with the session (storage.ts clearSession: logout, a deleted account). Never a password or a code: such fields are left out.
 */
import { FORM_DRAFTS_KEY as KEY } from './storage';

const KEPT_MS = 30 * 60_000;
const MAX_CHARS = 50_000;

/** Fields never kept, whatever form they are in: passwords and codes (a device password, an SMS code). */
const SECRET_FIELD = /password|code|пароль|код/i;

interface SavedDrafts {
  phone: string | null;
  at: number;
  drafts: Record<string, Record<string, unknown>>;
}

/** The forms on screen now, by their draft key: how to read what each holds. */
const mounted = new Map<string, () => object>();

/** A form on screen: its values are kept if the session ends while it is there. Returns the unregister. */
export function registerDraft(key: string, read: () => object): () => void {
  mounted.set(key, read);
  return () => {
    if (mounted.get(key) === read) mounted.delete(key);
  };
}

function withoutSecrets(values: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([field]) => !SECRET_FIELD.test(field)));
}

/** The session ended (the router's session-lost handler): keeps the values of every form on screen. */
export function keepDrafts(phone: string | null): void {
  if (mounted.size === 0) return;
  const drafts: SavedDrafts['drafts'] = {};
  for (const [key, read] of mounted) drafts[key] = withoutSecrets(read());
  try {
    const text = JSON.stringify({ phone, at: Date.now(), drafts } satisfies SavedDrafts);
    if (text.length <= MAX_CHARS) window.sessionStorage.setItem(KEY, text);
  } catch {
    // Private mode or a full quota: he types again.
  }
}

function readSaved(phone: string | null): SavedDrafts | null {
  try {
    const raw = window.sessionStorage.getItem(KEY);
    if (!raw || raw.length > MAX_CHARS) return null;
    const saved = JSON.parse(raw) as Partial<SavedDrafts>;
    const isCurrent =
      typeof saved.at === 'number' &&
      Date.now() - saved.at <= KEPT_MS &&
      saved.phone === phone &&
      typeof saved.drafts === 'object' &&
      saved.drafts !== null;
    if (!isCurrent) {
      window.sessionStorage.removeItem(KEY);
      return null;
    }
    return saved as SavedDrafts;
  } catch {
    return null;
  }
}

/** Whether a kept draft waits for this form (a folded form opens for it). */
export function hasDraft(key: string, phone: string | null): boolean {
  return readSaved(phone)?.drafts[key] !== undefined;
}

/** The values kept for this form after the same number logged in again, once; null when there are none. */
export function takeDraft(key: string, phone: string | null): Record<string, unknown> | null {
  const saved = readSaved(phone);
  const draft = saved?.drafts[key];
  if (!saved || draft === undefined || draft === null || typeof draft !== 'object') return null;
  delete saved.drafts[key];
  try {
    if (Object.keys(saved.drafts).length === 0) window.sessionStorage.removeItem(KEY);
    else window.sessionStorage.setItem(KEY, JSON.stringify(saved));
  } catch {
    // Nothing to clean where nothing could be written.
  }
  return withoutSecrets(draft);
}

/** A form's key: its name, the screen and the barrier, user and number the screen is about. */
export function draftKey(name: string, pathname: string, state: unknown): string {
  const ids = (state ?? {}) as { barrier_id?: unknown; user_id?: unknown; phone_id?: unknown };
  const id = (value: unknown) => (typeof value === 'number' ? value : '-');
  return `${name}|${pathname}|${id(ids.barrier_id)}|${id(ids.user_id)}|${id(ids.phone_id)}`;
}
