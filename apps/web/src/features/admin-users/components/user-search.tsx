import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { AUTH_VALIDATION } from '@propusk/contracts/texts/auth';
import { NAME_FALLBACK } from '@propusk/contracts/texts/common';
import { USER_MESSAGES } from '@propusk/contracts/texts/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { PhoneInput } from '../../../components/phone-input';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { UserText } from '../../../components/user-text';
import { ApiError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/errors';
import { formatPhone, isCompletePhone } from '../../../lib/phone';
import { type AdminUser, adminUsersKey, searchUser, unblockUser } from '../api/admin-users-api';

export const BLOCKED_LABEL = 'Заблокирован';

interface UserSearchProps {
  /** Sends the invitation (an access request from the administrator) to the found user. */
  onInvite: (user: AdminUser) => Promise<unknown>;
  /**
   * Invites a number the search did not find (issue 14 part 2): the invitation waits for that number to log
   * in, with or without an account. Answers whether the SMS telling the person went out.
   */
  onInviteByPhone?: (phone: string) => Promise<{ smsSent: boolean }>;
}

// The same words whether the number has an account or not (issue 28 part 2: the answer tells nothing of it).
export const INVITE_WAITING_SMS_SENT =
  'Приглашение отправлено по СМС. Оно появится у человека, когда он войдёт по этому номеру.';
export const INVITE_WAITING_SMS_NOT_SENT =
  'Приглашение ждёт. СМС не отправлено: оно появится у человека, когда он войдёт по этому номеру.';

/**
 * Finding a user by exact phone (spec.md section 4 "Blocking"): a blocked user is shown as blocked and can only
 * be unblocked; an active one can be invited. The search button is disabled while the phone is empty.
 */
export function UserSearch({ onInvite, onInviteByPhone }: UserSearchProps) {
  const queryClient = useQueryClient();
  const [phone, setPhone] = useState('+7');
  const [found, setFound] = useState<AdminUser | null>(null);
  const [isIncompleteShown, setIsIncompleteShown] = useState(false);
  const search = useMutation({ mutationFn: () => searchUser(phone) });
  const invite = useMutation({ mutationFn: (user: AdminUser) => onInvite(user) });
  const inviteByPhone = useMutation({
    mutationFn: (number: string) => {
      if (!onInviteByPhone) throw new Error('no invitation by number here');
      return onInviteByPhone(number);
    },
  });
  const unblock = useMutation({
    mutationFn: (user: AdminUser) => unblockUser(user.id),
    onSuccess: async (user) => {
      search.reset();
      setFound(user);
      await queryClient.invalidateQueries({ queryKey: adminUsersKey });
    },
  });
  const isEmpty = phone === '' || phone === '+7';

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!isCompletePhone(phone)) {
      setIsIncompleteShown(true);
      return;
    }
    setFound(null);
    invite.reset();
    inviteByPhone.reset();
    unblock.reset();
    search.mutate(undefined, { onSuccess: setFound });
  }

  const isNotFound = search.error instanceof ApiError && search.error.status === 404;
  const searchError = search.error
    ? isNotFound
      ? USER_MESSAGES.userNotFound
      : errorMessage(search.error, { fallback: USER_MESSAGES.userNotFound })
    : null;

  return (
    <Card withBorder radius="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text fw={600}>Найти пользователя по номеру</Text>
          <PhoneInput
            label="Номер телефона"
            value={phone}
            onChange={(next) => {
              setPhone(next);
              setIsIncompleteShown(false);
            }}
            error={isIncompleteShown ? AUTH_VALIDATION.phoneIncomplete : undefined}
            autoComplete="off"
          />
          <Button type="submit" variant="light" disabled={isEmpty} loading={search.isPending}>
            Найти
          </Button>
          {/* A step that succeeded takes the red line of the step before it away (issue 32 item 7). */}
          <ErrorLine message={inviteByPhone.isSuccess ? null : searchError} />
          {isNotFound && onInviteByPhone ? (
            <Stack gap={6} data-testid="invite-by-phone">
              <Button
                variant="light"
                onClick={() => inviteByPhone.mutate(phone)}
                loading={inviteByPhone.isPending}
                disabled={inviteByPhone.isSuccess}
              >
                Пригласить по номеру
              </Button>
              <SuccessLine
                message={
                  inviteByPhone.data
                    ? inviteByPhone.data.smsSent
                      ? INVITE_WAITING_SMS_SENT
                      : INVITE_WAITING_SMS_NOT_SENT
                    : null
                }
              />
              <ErrorLine
                message={
                  inviteByPhone.error
                    ? errorMessage(inviteByPhone.error, { fallback: USER_MESSAGES.inviteFailed })
                    : null
                }
              />
            </Stack>
          ) : null}
          {found ? (
            <Card withBorder radius="md" p="sm" data-testid="found-user">
              <Stack gap={6}>
                <Group justify="space-between">
                  <Text fw={600}>
                    <UserText fallback={NAME_FALLBACK}>{found.full_name}</UserText>
                  </Text>
                  {found.is_active ? null : (
                    <Badge color="red.9" variant="outline">
                      {BLOCKED_LABEL}
                    </Badge>
                  )}
                </Group>
                <Text size="sm">{formatPhone(found.phone)}</Text>
                {found.is_active ? (
                  <Button
                    onClick={() => invite.mutate(found)}
                    loading={invite.isPending}
                    disabled={invite.isSuccess}
                  >
                    Пригласить
                  </Button>
                ) : (
                  <>
                    {found.block_reason ? (
                      <Text size="sm">
                        Причина: <UserText>{found.block_reason}</UserText>
                      </Text>
                    ) : null}
                    <Button variant="light" onClick={() => unblock.mutate(found)} loading={unblock.isPending}>
                      Разблокировать
                    </Button>
                  </>
                )}
                <SuccessLine message={invite.isSuccess ? USER_MESSAGES.inviteSent : null} />
                <ErrorLine
                  message={
                    invite.error ? errorMessage(invite.error, { fallback: USER_MESSAGES.inviteFailed }) : null
                  }
                />
                <ErrorLine
                  message={
                    unblock.error
                      ? errorMessage(unblock.error, { fallback: USER_MESSAGES.unblockFailed })
                      : null
                  }
                />
              </Stack>
            </Card>
          ) : null}
        </Stack>
      </form>
    </Card>
  );
}
