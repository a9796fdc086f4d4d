import { useMediaQuery } from '@mantine/hooks';
import { useMemo } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { BottomBarContext } from '../../components/layout/bottom-bar';
import { DESK_MEDIA_QUERY, DeskContext } from '../../components/layout/desk';
import { NavigationFrame } from '../../components/layout/navigation-frame';
import { type AppNavigation, AppNavigationContext } from '../../lib/navigation';

/**
 * The root layout of the router: hands React Router's navigation to the screens that move without importing it
 * (lib/navigation.ts: the sign-in screens and the screen frame, which the light entry also renders), and the
 * frame of a screen with a navigation (the bottom bar, or a desk's side navigation) and whether the window is a
 * desk's to the screen frame (components/layout/bottom-bar.ts, desk.ts).
 */
export function NavigationBridge() {
  const navigate = useNavigate();
  const location = useLocation();
  // Read at the first render: a desk never draws the phone's frame first.
  const isDesk = useMediaQuery(DESK_MEDIA_QUERY, false, { getInitialValueInEffect: false });
  const value = useMemo<AppNavigation>(
    () => ({ navigate: (to, options) => void navigate(to, options), location }),
    [navigate, location],
  );
  return (
    <AppNavigationContext.Provider value={value}>
      <BottomBarContext.Provider value={NavigationFrame}>
        <DeskContext.Provider value={isDesk}>
          <Outlet />
        </DeskContext.Provider>
      </BottomBarContext.Provider>
    </AppNavigationContext.Provider>
  );
}
