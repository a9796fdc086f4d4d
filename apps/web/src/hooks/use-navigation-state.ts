import { useAppLocation } from '../lib/navigation';
import { useSignInState } from './use-sign-in-state';

/** The largest id PostgreSQL's `integer` holds: a longer number names no barrier. */
const MAX_ID = 2_147_483_647;

/**
 * `?barrier_id=` of a link from outside the app (a notification's path, docs/decisions/0035): a positive
 * integer, else null (the screen then shows its «missing barrier» state, never another barrier).
 */
export function barrierIdFromSearch(search: string): number | null {
  const value = new URLSearchParams(search).get('barrier_id');
  if (value === null || value.length > 10 || !/^[1-9]\d*$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_ID ? id : null;
}

/**
 * Navigation state of the current screen (phone and tokens as `useSignInState` reads them). The barrier comes
 * from the state the app navigated with, else from the address's `?barrier_id=`: a notification opens its
 * screen that way, and a reload keeps it.
 */
export function useNavigationState(): ReturnType<typeof useSignInState> {
  const state = useSignInState();
  const { search } = useAppLocation();
  return { ...state, barrier_id: state.barrier_id ?? barrierIdFromSearch(search) };
}
