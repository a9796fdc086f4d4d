/**
 * Back to the screen after a session ended (issue 41): the router keeps where the person was (path, query,
 * navigation state) in sessionStorage when a refused refresh sends him to /login; the code screen takes it
 * after the login of the same number, within half an hour. Another number, or later, starts at home.
 */
const KEY = 'return_after_login';
const KEPT_MS = 30 * 60_000;

interface SavedReturn {
  to: string;
  state: unknown;
  phone: string | null;
  at: number;
}

/** Screens that are no place to come back to: the sign-in ones. */
const SIGN_IN = /^\/(login|verifyuser|verifyadmin|smsadmin|restoresms|restorepassword|start)?\/?$/;

export function rememberReturn(
  location: { pathname: string; search: string; state: unknown },
  phone: string | null,
): void {
  if (SIGN_IN.test(location.pathname)) return;
  const saved: SavedReturn = {
    to: `${location.pathname}${location.search}`,
    state: location.state ?? null,
    phone,
    at: Date.now(),
  };
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify(saved));
  } catch {
    // Private mode or a full quota: he starts at home.
  }
}

/** How many returns were taken in this page's life: a screen that navigates later checks it did not change. */
let returnsTaken = 0;
export function returnsTakenSoFar(): number {
  return returnsTaken;
}

export function takeReturn(phone: string): { to: string; state: unknown } | null {
  try {
    const raw = window.sessionStorage.getItem(KEY);
    window.sessionStorage.removeItem(KEY);
    if (!raw || raw.length > 10_000) return null;
    const saved = JSON.parse(raw) as Partial<SavedReturn>;
    if (typeof saved.to !== 'string' || !saved.to.startsWith('/') || saved.to.startsWith('//')) return null;
    if (saved.phone !== phone || typeof saved.at !== 'number' || Date.now() - saved.at > KEPT_MS) return null;
    returnsTaken += 1;
    return { to: saved.to, state: saved.state ?? null };
  } catch {
    return null;
  }
}
