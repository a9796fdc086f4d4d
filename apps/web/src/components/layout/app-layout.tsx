import { Box, Button, Container, Group, Stack, Title } from '@mantine/core';
import { type ReactNode, useContext } from 'react';
import type { NavigationState } from '../../app/paths';
import { useAppNavigate } from '../../lib/navigation';
import { BottomBarContext } from './bottom-bar';
import type { NavigationItem } from './bottom-navigation';
import { isDeskNavigation, SideNavigationContext, useIsDesk } from './desk';

export interface BackLink {
  to: string;
  label: string;
  state?: NavigationState;
}

interface AppLayoutProps {
  title: string;
  back?: BackLink;
  /** Items of the bottom navigation; screens without it (login, steps) leave it out. */
  navigation?: readonly NavigationItem[];
  /** On a desk (desk.ts): a screen of tables takes the window's width; the others stay a readable column. */
  wide?: boolean;
  children: ReactNode;
}

/**
 * The frame of every screen: a narrow column that fills a phone and stays readable on a desktop, a title,
 * an optional back button and an optional bottom navigation bar. On a desk (from 1024 px) the administrator's
 * screens (a navigation marked by deskNavigation) have the navigation at the left instead, and their content
 * beside it.
 */
export function AppLayout({ title, back, navigation, wide, children }: AppLayoutProps) {
  const BottomNavigation = useContext(BottomBarContext);
  const SideNavigation = useContext(SideNavigationContext);
  const isDesk = useIsDesk();
  const content = (
    <Stack gap="md">
      {back ? <BackButton back={back} /> : null}
      <Title order={1} size="h2">
        {title}
      </Title>
      {children}
    </Stack>
  );
  if (navigation && SideNavigation && isDesk && isDeskNavigation(navigation)) {
    return (
      <Box mih="100dvh" bg="gray.0" style={{ display: 'flex' }} data-layout="desk">
        <SideNavigation items={navigation} />
        <Box component="main" px="xl" py="md" style={{ flex: 1, minWidth: 0 }}>
          <Box maw={wide ? 1280 : 720}>{content}</Box>
        </Box>
      </Box>
    );
  }
  return (
    <Box mih="100dvh" pb={navigation ? 80 : 'md'} bg="gray.0">
      <Container size={520} px="md" pt="md" component="main">
        {content}
      </Container>
      {navigation && BottomNavigation ? <BottomNavigation items={navigation} /> : null}
    </Box>
  );
}

function BackButton({ back }: { back: BackLink }) {
  const navigate = useAppNavigate();
  return (
    <Group>
      <Button
        variant="subtle"
        px={0}
        onClick={() => navigate(back.to, back.state ? { state: back.state } : undefined)}
      >
        ← {back.label}
      </Button>
    </Group>
  );
}
