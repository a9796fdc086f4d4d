import { type ComponentType, createContext, type ReactNode } from 'react';
import type { NavigationItem } from './bottom-navigation';

export interface NavigationFrameProps {
  items: readonly NavigationItem[];
  /** On a desk: a screen of tables takes the window's width. */
  wide: boolean | undefined;
  children: ReactNode;
}

/**
 * The frame of a screen with a navigation (the bottom bar on a phone, the side navigation on a desk:
 * navigation-frame.tsx), given to the screen frame (app-layout.tsx) by the router's root layout
 * (app/routes/navigation-bridge.tsx): the sign-in screens, which have no navigation, load without its code
 * (issue 32 item 8).
 */
export const BottomBarContext = createContext<ComponentType<NavigationFrameProps> | null>(null);
