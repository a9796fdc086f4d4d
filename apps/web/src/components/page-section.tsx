import { Card, SimpleGrid, Stack, Title, UnstyledButton } from '@mantine/core';
import { type ReactNode, useId, useState } from 'react';

/**
 * A named part of a screen (a region a screen reader lists by its heading): a card with a small heading and
 * what belongs under it.
 */
export function PageSection({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Card withBorder radius="md" component="section" aria-labelledby={headingId} p="sm">
      <Stack gap="xs">
        <Title order={2} size="h5" id={headingId}>
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

/** Buttons of a section side by side: two on a phone (a long label wraps), three from 1024 px. */
export function SectionButtons({ children }: { children: ReactNode }) {
  return (
    <SimpleGrid cols={2} spacing="xs" verticalSpacing="xs">
      {children}
    </SimpleGrid>
  );
}

/**
 * A form folded under its heading (a disclosure button, aria-expanded): the page stays short on a phone and
 * the form is drawn only while open. `initiallyOpen` where the screen has room (a desk).
 */
export function FoldedPart({
  title,
  initiallyOpen,
  children,
}: {
  title: string;
  initiallyOpen: boolean;
  children: ReactNode;
}) {
  const [isOpen, setIsOpen] = useState(initiallyOpen);
  const contentId = useId();
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        <UnstyledButton
          aria-expanded={isOpen}
          aria-controls={contentId}
          onClick={() => setIsOpen((open) => !open)}
          mih={44}
          w="100%"
          style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', fontWeight: 600 }}
        >
          {title}
          <span aria-hidden="true">{isOpen ? '▴' : '▾'}</span>
        </UnstyledButton>
      </Title>
      <div id={contentId} hidden={!isOpen}>
        {isOpen ? children : null}
      </div>
    </Stack>
  );
}
