import { createContext, useContext } from 'react';
import type { NavigationItem } from './bottom-navigation';

/** From this width the administrator's screens are laid out for a desk: a side navigation and tables. */
export const DESK_MEDIA_QUERY = '(min-width: 1024px)';

/**
 * Whether the window is a desk's (DESK_MEDIA_QUERY), told by the router's root layout
 * (app/routes/navigation-bridge.tsx): the sign-in screens, which never use it, load without the media query.
 */
export const DeskContext = createContext(false);

export function useIsDesk(): boolean {
  return useContext(DeskContext);
}

const deskNavigations = new WeakSet<readonly NavigationItem[]>();

/** Marks a bottom navigation whose screens take the desk layout from DESK_MEDIA_QUERY (the administrator's). */
export function deskNavigation(items: readonly NavigationItem[]): readonly NavigationItem[] {
  deskNavigations.add(items);
  return items;
}

export function isDeskNavigation(items: readonly NavigationItem[] | undefined): boolean {
  return items !== undefined && deskNavigations.has(items);
}
