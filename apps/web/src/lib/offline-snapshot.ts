/**
 * The resident's last barriers for the app opened with no network (issue 43, docs/decisions/0035): each
 * barrier's address and the number its gate answers (a call opens it), and when they were read. Written when
 * his barrier list loads; cleared with the session. Nothing else is kept for offline: no API answer is cached.
 */
const KEY = 'offline_barriers';
const MAX_BARRIERS = 20;

export interface OfflineGate {
  id: number;
  address: string;
  device_phone: string;
}

export interface OfflineSnapshot {
  saved_at: string;
  barriers: OfflineGate[];
}

export function rememberBarriers(
  barriers: readonly { id: number; address: string; device_phone: string | null }[],
): void {
  const gates = barriers
    .filter((barrier): barrier is OfflineGate => typeof barrier.device_phone === 'string')
    .slice(0, MAX_BARRIERS)
    .map(({ id, address, device_phone }) => ({ id, address, device_phone }));
  try {
    const snapshot: OfflineSnapshot = { saved_at: new Date().toISOString(), barriers: gates };
    window.localStorage.setItem(KEY, JSON.stringify(snapshot));
  } catch {
    // Private mode or a full quota: the app then has nothing to show offline.
  }
}

export function readSnapshot(): OfflineSnapshot | null {
  try {
    const raw = window.localStorage.getItem(KEY);
    if (!raw || raw.length > 20_000) return null;
    const parsed = JSON.parse(raw) as OfflineSnapshot;
    if (typeof parsed.saved_at !== 'string' || !Array.isArray(parsed.barriers)) return null;
    return parsed;
  } catch {
    return null;
  }
}

/** Whether the page was opened with no network (the shell came from the service worker). */
export const openedOffline = typeof navigator !== 'undefined' && navigator.onLine === false;
