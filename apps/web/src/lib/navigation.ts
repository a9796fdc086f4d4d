import { createContext, useContext } from 'react';

/**
 * How the sign-in screens and the screen frame move between screens without importing React Router: the light
 * entry of the sign-in screens (app/shell) provides it with no router at all, the whole app from React Router's
 * own hooks (app/routes/navigation-bridge.tsx). React Router is one module of 100 KB that the bundler cannot split,
 * so a single import of it on the login path brought the data router with it (issue 32 item 8).
 */
export interface AppLocation {
  pathname: string;
  search: string;
  hash: string;
  /** Navigation state (lib/paths.ts NavigationState). */
  state: unknown;
  key: string;
}

export interface AppNavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export type AppNavigate = (to: string, options?: AppNavigateOptions) => void;

export interface AppNavigation {
  navigate: AppNavigate;
  location: AppLocation;
}

export const AppNavigationContext = createContext<AppNavigation | null>(null);

function useAppNavigation(): AppNavigation {
  const navigation = useContext(AppNavigationContext);
  if (!navigation)
    throw new Error('AppNavigationContext is missing: render under the router or the login shell');
  return navigation;
}

export function useAppNavigate(): AppNavigate {
  return useAppNavigation().navigate;
}

export function useAppLocation(): AppLocation {
  return useAppNavigation().location;
}
