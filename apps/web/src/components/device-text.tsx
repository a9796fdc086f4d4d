import { Code, Text } from '@mantine/core';
import { UserText } from './user-text';

/** The labels a device text is shown under: what the server sends, what the unit sent, the gateway's id. */
export const DEVICE_TEXT_LABELS = {
  sms: 'Текст СМС',
  reply: 'Ответ устройства',
  // The SMS gateway's own id of a message (asked for by its support), not ours.
  gateway: 'Номер сообщения в шлюзе',
} as const;

export type DeviceTextSide = keyof typeof DEVICE_TEXT_LABELS;

/**
 * A text in the device's own language — an SMS command as the unit receives it, a reply as the unit sent it,
 * or the form of either — always under its label («Текст СМС», «Ответ устройства»), never bare (issue 32
 * item 5). The text is isolated in `<bdi>` and marked translate="no": a translator would make it wrong, and
 * the Latin-text walks skip it only inside this labelled element (`data-device-text`).
 */
export function DeviceText({
  side,
  children,
  testId,
  label = DEVICE_TEXT_LABELS[side],
}: {
  side: DeviceTextSide;
  children: string;
  testId?: string;
  /**
   * A longer label that starts with the side's own («Ответ устройства по руководству»), or the settings
   * preview's 'Команда:' (spec.md's word for it; the Latin-text walks know it as a device text's label too).
   */
  label?: string;
}) {
  return (
    <Text span size="sm" data-device-text={side}>
      {label.endsWith(':') ? label : `${label}:`}{' '}
      <Code translate="no" data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        <UserText verbatim>{children}</UserText>
      </Code>
    </Text>
  );
}
