import { Box, Button, Container, Group, Stack, Title } from '@mantine/core';
import { type ReactNode, useContext } from 'react';
import { useAppNavigate } from '../../lib/navigation';
import type { NavigationState } from '../../lib/paths';
import { BottomBarContext } from './bottom-bar';
import type { NavigationItem } from './bottom-navigation';

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
 * an optional back button and an optional navigation (navigation-frame.tsx: the bottom bar, or on a desk the
 * side navigation beside the content).
 */
export function AppLayout({ title, back, navigation, wide, children }: AppLayoutProps) {
  const navigate = useAppNavigate();
  const NavigationFrame = useContext(BottomBarContext);
  const content = (
    <Stack gap="md">
      {back ? (
        <Group>
          <Button
            variant="subtle"
            px={0}
            onClick={() => navigate(back.to, back.state ? { state: back.state } : undefined)}
          >
            ← {back.label}
          </Button>
        </Group>
      ) : null}
      <Title order={1} size="h2">
        {title}
      </Title>
      {children}
    </Stack>
  );
  if (navigation && NavigationFrame) {
    return (
      <NavigationFrame items={navigation} wide={wide}>
        {content}
      </NavigationFrame>
    );
  }
  return (
    <Box mih="100dvh" pb="md" bg="gray.0">
      <Container size={520} px="md" pt="md" component="main">
        {content}
      </Container>
    </Box>
  );
}
