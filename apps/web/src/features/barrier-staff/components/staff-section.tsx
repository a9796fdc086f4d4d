import { Button, Card, Group, Select, Stack, Text } from '@mantine/core';
import { STAFF_ROLES, type StaffRole } from '@propusk/contracts/barrier-staff';
import { AUTH_VALIDATION } from '@propusk/contracts/texts/auth';
import { COMMON_MESSAGES, NAME_FALLBACK } from '@propusk/contracts/texts/common';
import { STAFF_ROLE_LABELS } from '@propusk/contracts/texts/staff';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PhoneInput } from '../../../components/phone-input';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { displayText, UserText } from '../../../components/user-text';
import { errorMessage } from '../../../lib/errors';
import { formatPhone, isCompletePhone } from '../../../lib/phone';
import {
  addBarrierStaff,
  barrierStaffQueryKey,
  changeStaffRole,
  getBarrierStaff,
  removeBarrierStaff,
  type StaffMember,
} from '../api/barrier-staff-api';

/** What each role may do, in a line under the role select. */
export const STAFF_ROLE_HINTS: Readonly<Record<StaffRole, string>> = {
  manager: 'Всё, кроме удаления шлагбаума и управления администраторами.',
  operator: 'Пользователи, номера, заявки и история.',
  dispatcher: 'Открытие шлагбаума и состояние устройства.',
};

const roleOptions = STAFF_ROLES.map((role) => ({ value: role, label: STAFF_ROLE_LABELS[role] ?? role }));
const isStaffRole = (value: string | null): value is StaffRole =>
  value !== null && (STAFF_ROLES as readonly string[]).includes(value);

/**
 * «Администраторы» of the admin barrier page (under the page's heading of that name), for its owner: the co-administrators and dispatchers with their
 * roles, add one by the phone of his administrator account, change a role, remove (with a confirmation).
 */
export function StaffSection({ barrierId }: { barrierId: number }) {
  const queryClient = useQueryClient();
  const key = barrierStaffQueryKey(barrierId);
  const staff = useQuery({ queryKey: key, queryFn: () => getBarrierStaff(barrierId) });
  const [phone, setPhone] = useState('');
  const [role, setRole] = useState<StaffRole>('operator');
  const [isIncompleteShown, setIsIncompleteShown] = useState(false);
  const [removing, setRemoving] = useState<StaffMember | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const add = useMutation({
    mutationFn: () => addBarrierStaff(barrierId, { phone, role }),
    onSuccess: async (member) => {
      setPhone('');
      // A step that succeeded clears the red line of another one before it (issue 32 item 7).
      change.reset();
      setMessage(`Администратор ${displayText(member.full_name, NAME_FALLBACK)} добавлен.`);
      await refresh();
    },
  });
  const change = useMutation({
    mutationFn: (next: { userId: number; role: StaffRole }) =>
      changeStaffRole(barrierId, next.userId, next.role),
    onSuccess: async () => {
      add.reset();
      setMessage('Роль изменена.');
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (member: StaffMember) => removeBarrierStaff(barrierId, member.id),
    onSuccess: async () => {
      setRemoving(null);
      add.reset();
      change.reset();
      setMessage('Администратор удалён.');
      await refresh();
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    if (!isCompletePhone(phone)) {
      setIsIncompleteShown(true);
      return;
    }
    add.mutate();
  }

  return (
    <Stack gap="sm" data-testid="staff-section">
      <QueryStatus
        isPending={staff.isPending}
        error={staff.error ? errorMessage(staff.error, { fallback: COMMON_MESSAGES.loadFailed }) : null}
      />
      {staff.data && staff.data.staff.length === 0 ? (
        <Text size="sm" c="gray.7">
          Других администраторов нет.
        </Text>
      ) : null}
      {staff.data?.staff.map((member) => (
        <Card key={member.id} withBorder radius="md" p="sm" data-testid="staff-member">
          <Stack gap={6}>
            <Text fw={600}>
              <UserText fallback={NAME_FALLBACK}>{member.full_name}</UserText>
            </Text>
            <Text size="sm">{formatPhone(member.phone)}</Text>
            <Group gap="xs" align="flex-end" wrap="wrap">
              <Select
                label="Роль"
                data={roleOptions}
                value={member.role}
                allowDeselect={false}
                onChange={(value) => {
                  if (isStaffRole(value) && value !== member.role) {
                    setMessage(null);
                    change.mutate({ userId: member.id, role: value });
                  }
                }}
                style={{ flex: 1, minWidth: 160 }}
              />
              <Button
                color="red.9"
                variant="outline"
                onClick={() => {
                  setMessage(null);
                  // The dialog of another removal must not open with the last one's failure.
                  remove.reset();
                  setRemoving(member);
                }}
              >
                Удалить
              </Button>
            </Group>
          </Stack>
        </Card>
      ))}
      <ErrorLine
        message={change.error ? errorMessage(change.error, { fallback: COMMON_MESSAGES.updateFailed }) : null}
      />
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text fw={600}>Добавить администратора</Text>
          <PhoneInput
            label="Номер телефона администратора"
            value={phone}
            onChange={(next) => {
              setPhone(next);
              setIsIncompleteShown(false);
            }}
            error={isIncompleteShown ? AUTH_VALIDATION.phoneIncomplete : undefined}
            autoComplete="off"
          />
          <Select
            label="Роль"
            data={roleOptions}
            value={role}
            allowDeselect={false}
            onChange={(value) => {
              if (isStaffRole(value)) setRole(value);
            }}
            description={STAFF_ROLE_HINTS[role]}
          />
          <Button type="submit" variant="light" loading={add.isPending}>
            Добавить
          </Button>
          <ErrorLine
            message={add.error ? errorMessage(add.error, { fallback: COMMON_MESSAGES.updateFailed }) : null}
          />
          <SuccessLine message={message} />
        </Stack>
      </form>
      <ConfirmDialog
        opened={removing !== null}
        message={`Удалить администратора ${displayText(removing?.full_name, NAME_FALLBACK)}? Он сразу потеряет доступ к управлению шлагбаумом.`}
        confirmLabel="Да, удалить"
        onConfirm={() => {
          if (removing) remove.mutate(removing);
        }}
        onCancel={() => setRemoving(null)}
        isBusy={remove.isPending}
        error={remove.error ? errorMessage(remove.error, { fallback: COMMON_MESSAGES.updateFailed }) : null}
      />
    </Stack>
  );
}
