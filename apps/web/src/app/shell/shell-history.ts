import type { AppLocation } from '../../lib/navigation';
import { paths } from '../../lib/paths';
import { readStored } from '../../lib/storage';

/**
 * The screens a person who is not signed in meets first, served by the light entry (login-shell.tsx) without the
 * data router: the phone number and the code (issue 32 item 8). Every other path is the whole app's.
 */
const SHELL_PATHS: readonly string[] = [paths.login, paths.verifyUser];

function normalise(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

export function isShellPath(pathname: string): boolean {
  return SHELL_PATHS.includes(normalise(pathname));
}

/**
 * Whether the page starts in the light entry: a sign-in screen (or `/`, which sends a visitor without a session to
 * /login) and no stored session (with one, the whole app's loaders send the person to his area, as before).
 */
export function startsInShell(): boolean {
  if (readStored('access_token') || readStored('refresh_token')) return false;
  return window.location.pathname === paths.root || isShellPath(window.location.pathname);
}

/** React Router's browser history keeps `{ usr, key, idx }` in history.state; the light entry writes the same. */
interface HistoryEntry {
  usr?: unknown;
  key?: string;
  idx?: number;
}

function currentEntry(): HistoryEntry {
  return (window.history.state ?? {}) as HistoryEntry;
}

export function readLocation(): AppLocation {
  const entry = currentEntry();
  return {
    pathname: normalise(window.location.pathname),
    search: window.location.search,
    hash: window.location.hash,
    state: entry.usr ?? null,
    key: entry.key ?? 'default',
  };
}

/** `/` without a session is /login (the router's root loader says the same), written over the entry. */
export function openShellAt(): void {
  const entry = currentEntry();
  const url = window.location.pathname === paths.root ? paths.login : window.location.href;
  window.history.replaceState({ ...entry, idx: entry.idx ?? 0 }, '', url);
}

/**
 * Writes a navigation into the browser's history the way the data router would, so that when the whole app takes
 * over it reads the same state and Back and Forward keep working across the hand-over.
 */
export function writeHistory(kind: 'push' | 'replace', to: string, state: unknown): void {
  const idx = (currentEntry().idx ?? 0) + (kind === 'push' ? 1 : 0);
  const entry: HistoryEntry = { usr: state ?? null, key: Math.random().toString(36).slice(2, 10), idx };
  const target = new URL(to, window.location.href);
  const url = `${target.pathname}${target.search}${target.hash}`;
  if (kind === 'push') window.history.pushState(entry, '', url);
  else window.history.replaceState(entry, '', url);
}
