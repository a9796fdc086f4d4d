import { useMemo } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { BottomBarContext } from '../../components/layout/bottom-bar';
import { BottomNavigation } from '../../components/layout/bottom-navigation';
import { type AppNavigation, AppNavigationContext } from '../../lib/navigation';

/**
 * The root layout of the router: hands React Router's navigation to the screens that move without importing it
 * (lib/navigation.ts: the sign-in screens and the screen frame, which the light entry also renders), and the
 * bottom navigation bar to the screen frame (components/layout/bottom-bar.ts).
 */
export function NavigationBridge() {
  const navigate = useNavigate();
  const location = useLocation();
  const value = useMemo<AppNavigation>(
    () => ({ navigate: (to, options) => void navigate(to, options), location }),
    [navigate, location],
  );
  return (
    <AppNavigationContext.Provider value={value}>
      <BottomBarContext.Provider value={BottomNavigation}>
        <Outlet />
      </BottomBarContext.Provider>
    </AppNavigationContext.Provider>
  );
}
