import { Box, Stack, UnstyledButton } from '@mantine/core';
import { useAppLocation, useAppNavigate } from '../../lib/navigation';
import type { NavigationItem } from './bottom-navigation';
import classes from './side-navigation.module.css';

/** The bottom navigation's areas as a column at the left of a desk's window (the same names and order). */
export function SideNavigation({ items }: { items: readonly NavigationItem[] }) {
  const { pathname } = useAppLocation();
  const navigate = useAppNavigate();
  return (
    <Box component="nav" aria-label="Основная навигация" className={classes.bar}>
      <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {items.map((item) => {
          const isActive = pathname === item.to || (item.matches ?? []).includes(pathname);
          return (
            <li key={item.to}>
              <UnstyledButton
                className={classes.item}
                data-active={isActive || undefined}
                aria-current={isActive ? 'page' : undefined}
                onClick={() => navigate(item.to)}
              >
                <span>{item.label}</span>
                {item.badge ? <item.badge /> : null}
              </UnstyledButton>
            </li>
          );
        })}
      </Stack>
    </Box>
  );
}
