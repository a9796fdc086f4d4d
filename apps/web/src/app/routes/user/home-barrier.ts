const STORAGE_KEY = 'propusk.home-barrier';

/**
 * The barrier a returning resident was sent to (resident-home.ts): a loader's redirect carries no navigation
 * state, so /mybarrier falls back to this id, as screens fall back to stored values (spec.md section 2).
 */
export function rememberHomeBarrier(barrierId: number): void {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, String(barrierId));
  } catch {
    // Storage refused (private mode): /mybarrier then offers the list («К шлагбаумам»).
  }
}

export function homeBarrier(): number | null {
  try {
    const stored = Number.parseInt(window.sessionStorage.getItem(STORAGE_KEY) ?? '', 10);
    return Number.isSafeInteger(stored) && stored > 0 ? stored : null;
  } catch {
    return null;
  }
}
