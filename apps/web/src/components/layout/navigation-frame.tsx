import { Box, Container } from '@mantine/core';
import type { NavigationFrameProps } from './bottom-bar';
import { BottomNavigation } from './bottom-navigation';
import { isDeskNavigation, useIsDesk } from './desk';
import { SideNavigation } from './side-navigation';

/**
 * A screen with a navigation: on a phone the column and the bottom bar; on a desk (from 1024 px) the
 * administrator's screens (a navigation marked by deskNavigation) have the navigation at the left and their
 * content beside it, a table screen (`wide`) as wide as the window allows.
 */
export function NavigationFrame({ items, wide, children }: NavigationFrameProps) {
  const isDesk = useIsDesk();
  if (isDesk && isDeskNavigation(items)) {
    return (
      <Box mih="100dvh" bg="gray.0" style={{ display: 'flex' }} data-layout="desk">
        <SideNavigation items={items} />
        <Box component="main" px="xl" py="md" style={{ flex: 1, minWidth: 0 }}>
          <Box maw={wide ? 1280 : 720}>{children}</Box>
        </Box>
      </Box>
    );
  }
  return (
    <Box mih="100dvh" pb={80} bg="gray.0">
      <Container size={520} px="md" pt="md" component="main">
        {children}
      </Container>
      <BottomNavigation items={items} />
    </Box>
  );
}
