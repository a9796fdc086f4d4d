import { Button, Stack, Text, Textarea } from '@mantine/core';
import { USER_MESSAGES, USER_VALIDATION } from '@propusk/contracts/texts/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorLine } from '../../../components/status-line';
import { UserText } from '../../../components/user-text';
import { errorMessage } from '../../../lib/errors';
import {
  type AdminUser,
  adminUserQueryKey,
  adminUsersKey,
  blockUser,
  unblockUser,
} from '../api/admin-users-api';

export const BLOCK_CONFIRM_TEXT =
  'Заблокировать пользователя на всех ваших шлагбаумах? Его номера будут удалены с устройств.';

export const BLOCKED_TEXT = 'Пользователь заблокирован на всех ваших шлагбаумах.';

/** Blocking needs a reason (spec.md section 5); a blocked user can be unblocked. */
export function BlockUserForm({ user, onChanged }: { user: AdminUser; onChanged?: () => void }) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [isSubmitted, setIsSubmitted] = useState(false);
  const [isConfirming, setIsConfirming] = useState(false);
  const reasonError = isSubmitted && !reason.trim() ? USER_VALIDATION.blockReason : null;
  const afterChange = async (saved: AdminUser) => {
    queryClient.setQueryData(adminUserQueryKey(user.id), saved);
    await queryClient.invalidateQueries({ queryKey: adminUsersKey });
    onChanged?.();
  };
  const block = useMutation({
    mutationFn: () => blockUser(user.id, reason.trim()),
    onSuccess: async (saved) => {
      setIsConfirming(false);
      await afterChange(saved);
    },
  });
  const unblock = useMutation({ mutationFn: () => unblockUser(user.id), onSuccess: afterChange });

  function submit(event: FormEvent) {
    event.preventDefault();
    setIsSubmitted(true);
    if (!reason.trim()) return;
    block.reset();
    setIsConfirming(true);
  }

  if (!user.is_active)
    return (
      <Stack gap="sm">
        <Text>{BLOCKED_TEXT}</Text>
        {user.block_reason ? (
          <Text size="sm">
            Причина: <UserText>{user.block_reason}</UserText>
          </Text>
        ) : null}
        <ErrorLine
          message={
            unblock.error ? errorMessage(unblock.error, { fallback: USER_MESSAGES.unblockFailed }) : null
          }
        />
        <Button variant="light" onClick={() => unblock.mutate()} loading={unblock.isPending}>
          Разблокировать
        </Button>
      </Stack>
    );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Textarea
          label="Причина блокировки"
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          error={reasonError}
          maxLength={500}
          autosize
          minRows={2}
        />
        <Button type="submit" color="red.9" variant="outline">
          Заблокировать
        </Button>
        <ConfirmDialog
          opened={isConfirming}
          message={`${BLOCK_CONFIRM_TEXT} Причина: ${reason.trim()}`}
          confirmLabel="Да, заблокировать"
          onConfirm={() => block.mutate()}
          onCancel={() => setIsConfirming(false)}
          isBusy={block.isPending}
          error={block.error ? errorMessage(block.error, { fallback: USER_MESSAGES.blockFailed }) : null}
        />
      </Stack>
    </form>
  );
}
