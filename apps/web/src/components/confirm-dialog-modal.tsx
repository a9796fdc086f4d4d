import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { ErrorLine } from './status-line';

export interface ConfirmDialogProps {
  opened: boolean;
  message: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  isBusy?: boolean;
  error?: string | null;
}

/**
 * A confirmation in a modal dialog (Mantine's), centred over the screen: on a phone it is never hidden under
 * the bottom navigation, as an inline card at the end of a long page was. Loaded by confirm-dialog.tsx.
 */
export default function ConfirmDialogModal({
  opened,
  message,
  confirmLabel,
  onConfirm,
  onCancel,
  isBusy = false,
  error = null,
}: ConfirmDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title="Подтверждение"
      centered
      closeButtonProps={{ 'aria-label': 'Закрыть' }}
    >
      <Stack gap="sm">
        <Text>{message}</Text>
        <Group grow>
          <Button color="red.9" loading={isBusy} onClick={onConfirm}>
            {confirmLabel}
          </Button>
          <Button variant="default" onClick={onCancel}>
            Отмена
          </Button>
        </Group>
        <ErrorLine message={error} />
      </Stack>
    </Modal>
  );
}
