import type { NavigationState } from '../app/paths';
import { useAppLocation } from '../lib/navigation';
import { readStored } from '../lib/storage';

/**
 * Navigation state of a sign-in screen, with phone and tokens falling back to stored values (spec.md section
 * 2), so that a reload or a direct visit still works. Apart from `useNavigationState` so that the /login
 * bundle carries nothing of the barrier screens (its JavaScript budget).
 */
export function useSignInState(): NavigationState & {
  phone: string | null;
  verification_token: string | null;
} {
  const state = (useAppLocation().state ?? {}) as NavigationState;
  return {
    ...state,
    phone: state.phone || readStored('phone'),
    verification_token: state.verification_token || readStored('verification_token'),
  };
}
