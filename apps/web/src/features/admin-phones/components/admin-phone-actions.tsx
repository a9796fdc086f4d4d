import { Button } from '@mantine/core';
import { PHONE_MESSAGES } from '@propusk/contracts/texts/phones';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorLine } from '../../../components/status-line';
import { displayText } from '../../../components/user-text';
import { errorMessage } from '../../../lib/errors';
import { adminPhonesKey, deleteAdminPhone, type Phone, retryPhone } from '../api/admin-phones-api';

export const RETRY_FAILED_TEXT = 'Не удалось повторить отправку';

/**
 * What the administrator can do with a user's phone: edit and delete an extra phone (the primary one is the
 * user's own number), and try again when the device command failed (status `error`).
 */
export function AdminPhoneActions({ phone, onEdit }: { phone: Phone; onEdit: () => void }) {
  const queryClient = useQueryClient();
  const [isConfirming, setIsConfirming] = useState(false);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: adminPhonesKey });
  const remove = useMutation({
    mutationFn: () => deleteAdminPhone(phone.id),
    onSuccess: async () => {
      setIsConfirming(false);
      await invalidate();
    },
  });
  const retry = useMutation({ mutationFn: () => retryPhone(phone.id), onSuccess: invalidate });
  const isExtra = phone.type !== 'primary';

  return (
    <>
      {phone.status === 'error' ? (
        <Button size="xs" color="red.9" loading={retry.isPending} onClick={() => retry.mutate()}>
          Повторить отправку
        </Button>
      ) : null}
      {isExtra ? (
        <>
          <Button size="xs" variant="light" onClick={onEdit}>
            Изменить
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red.9"
            onClick={() => {
              remove.reset();
              setIsConfirming(true);
            }}
          >
            Удалить
          </Button>
          <ConfirmDialog
            opened={isConfirming}
            message={`Удалить номер «${displayText(phone.name)}» (${phone.phone})? Он будет удалён с устройства.`}
            confirmLabel="Да, удалить номер"
            onConfirm={() => remove.mutate()}
            onCancel={() => setIsConfirming(false)}
            isBusy={remove.isPending}
            error={
              remove.error ? errorMessage(remove.error, { fallback: PHONE_MESSAGES.phoneDeleteFailed }) : null
            }
          />
        </>
      ) : null}
      <ErrorLine message={retry.error ? errorMessage(retry.error, { fallback: RETRY_FAILED_TEXT }) : null} />
    </>
  );
}
