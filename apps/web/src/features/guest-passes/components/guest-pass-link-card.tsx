import { Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { SuccessLine } from '../../../components/status-line';
import { formatDateTime } from '../../../lib/dates';
import { type CreatedGuestPass, guestPassLink } from '../api/guest-passes-api';

/**
 * A new pass's link, shown once (only its hash is kept): copy it, or share it through the phone's share sheet
 * where the browser has one (navigator.share: Android and iOS browsers; not every desktop one).
 */
export function GuestPassLinkCard({ pass, onDone }: { pass: CreatedGuestPass; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const link = guestPassLink(pass);
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';

  return (
    <Card withBorder radius="md" data-testid="guest-pass-link">
      <Stack gap="xs">
        <Text fw={600}>Ссылка готова. Она показывается один раз.</Text>
        <Text size="sm">
          {formatDateTime(pass.start)} — {formatDateTime(pass.end)}
        </Text>
        <TextInput
          label="Ссылка для гостя"
          value={link}
          // The address as it is sent: not text to translate (the Russian-only check skips it too).
          translate="no"
          data-verbatim
          readOnly
          onFocus={(e) => e.currentTarget.select()}
        />
        <Group grow>
          <Button
            variant="light"
            onClick={async () => {
              try {
                await navigator.clipboard.writeText(link);
                setCopied(true);
              } catch {
                setCopied(false);
              }
            }}
          >
            Скопировать
          </Button>
          {canShare ? (
            <Button
              variant="light"
              onClick={() => {
                // The phone's own share sheet (issue 41: a messenger, СМС, mail); a cancelled share says nothing.
                void navigator
                  .share({
                    title: 'Гостевой пропуск',
                    text: `Гостевой пропуск к шлагбауму: ${formatDateTime(pass.start)} — ${formatDateTime(pass.end)}.`,
                    url: link,
                  })
                  .catch(() => {});
              }}
            >
              Поделиться
            </Button>
          ) : null}
        </Group>
        <SuccessLine message={copied ? 'Ссылка скопирована.' : null} />
        <Button variant="subtle" onClick={onDone}>
          Готово
        </Button>
      </Stack>
    </Card>
  );
}
