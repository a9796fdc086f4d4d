import { Box, Group, UnstyledButton } from '@mantine/core';
import type { ComponentType } from 'react';
import { useAppLocation, useAppNavigate } from '../../lib/navigation';
import classes from './bottom-navigation.module.css';

export interface NavigationItem {
  to: string;
  label: string;
  /** Other paths under this item (a barrier card belongs to "Шлагбаумы"). */
  matches?: readonly string[];
  /** Shown after the label (a counter of what waits there). */
  badge?: ComponentType;
}

/** The bar at the bottom of a phone screen: one button per area. */
export function BottomNavigation({ items }: { items: readonly NavigationItem[] }) {
  const { pathname } = useAppLocation();
  const navigate = useAppNavigate();
  return (
    <Box component="nav" aria-label="Основная навигация" className={classes.bar}>
      <Group grow gap={0} maw={520} mx="auto">
        {items.map((item) => {
          const isActive = pathname === item.to || (item.matches ?? []).includes(pathname);
          return (
            <UnstyledButton
              key={item.to}
              className={classes.item}
              data-active={isActive || undefined}
              aria-current={isActive ? 'page' : undefined}
              onClick={() => navigate(item.to)}
            >
              <span>{item.label}</span>
              {item.badge ? <item.badge /> : null}
            </UnstyledButton>
          );
        })}
      </Group>
    </Box>
  );
}
