import { type ComponentType, createContext } from 'react';
import type { NavigationItem } from './bottom-navigation';

/**
 * The bottom navigation bar, given to the screen frame (app-layout.tsx) by the router's root layout
 * (app/routes/navigation-bridge.tsx): the sign-in screens, which have no bar, load without its code (issue 32
 * item 8).
 */
export const BottomBarContext = createContext<ComponentType<{ items: readonly NavigationItem[] }> | null>(
  null,
);
