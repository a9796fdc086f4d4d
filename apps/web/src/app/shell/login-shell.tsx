import {
  Component,
  type ComponentType,
  lazy,
  type ReactNode,
  Suspense,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { ErrorScreen, isChunkLoadError } from '../../components/error-screen';
import { ScreenLoader } from '../../components/screen-loader';
import { type AppNavigation, AppNavigationContext } from '../../lib/navigation';
import { paths } from '../../lib/paths';
import LoginRoute from '../routes/auth/login';
import { isShellPath, readLocation, writeHistory } from './shell-history';

const SCREENS: Record<string, ComponentType> = {
  [paths.login]: LoginRoute,
  [paths.verifyUser]: lazy(() => import('../routes/auth/verify-user')),
};

/** A screen that throws shows the Russian error screen, as the router's error boundary would (issue 32 item 2). */
class ShellErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    return <ErrorScreen kind={!navigator.onLine || isChunkLoadError(error) ? 'network' : 'failed'} />;
  }
}

/**
 * The light entry of the sign-in screens (issue 32 item 8): /login and /verifyuser without React Router. Their
 * navigation (lib/navigation.ts) writes the browser's history as the data router does; a navigation anywhere
 * else (the session's first screen after the code, the administrator's password step) calls `onLeave`, which
 * loads the whole app, and the router starts from the history entry written here.
 */
export function LoginShell({ onLeave }: { onLeave: () => void }) {
  const [location, setLocation] = useState(readLocation);
  const follow = useMemo(
    () => () => {
      if (isShellPath(window.location.pathname)) setLocation(readLocation());
      else onLeave();
    },
    [onLeave],
  );
  const navigation = useMemo<AppNavigation>(
    () => ({
      navigate: (to, options) => {
        writeHistory(options?.replace ? 'replace' : 'push', to, options?.state);
        follow();
      },
      location,
    }),
    [follow, location],
  );

  useEffect(() => {
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, [follow]);

  const Screen = SCREENS[location.pathname] ?? LoginRoute;
  return (
    <AppNavigationContext.Provider value={navigation}>
      <ShellErrorBoundary>
        <Suspense fallback={<ScreenLoader />}>
          <Screen />
        </Suspense>
      </ShellErrorBoundary>
    </AppNavigationContext.Provider>
  );
}
