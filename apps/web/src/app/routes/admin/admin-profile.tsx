import { Button, Card, Select, Stack, Text, TextInput } from '@mantine/core';
import { PHONE_PRIVACY, type PhonePrivacy } from '@propusk/contracts/common';
import { MESSAGES, NAME_FALLBACK, PHONE_FALLBACK, PHONE_PRIVACY_LABELS } from '@propusk/contracts/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { QueryStatus } from '../../../components/query-status';
import { RoleToggle } from '../../../components/role-toggle';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { BalanceCard } from '../../../features/admin-profile/components/balance-card';
import {
  type Profile,
  profileQueryKey,
  profileQueryOptions,
  updateProfile,
} from '../../../features/users/api/profile-api';
import { useLogout } from '../../../hooks/use-logout';
import { NetworkError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/errors';
import { paths } from '../../paths';
import { NAME_SAVED_TEXT } from '../user/profile';
import { adminNavigation } from './navigation';

export const PRIVACY_SAVED_TEXT = 'Видимость номера сохранена';

/**
 * /admin: the administrator profile (spec.md section 2): name, phone change, phone privacy, password change,
 * the SMS balance, the toggle back to /user and logging out. Each change patches one field.
 */
export function AdminProfileRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logout = useLogout();
  const profile = useQuery(profileQueryOptions);
  const [fullName, setFullName] = useState('');
  const [isNameSaved, setIsNameSaved] = useState(false);

  useEffect(() => {
    if (profile.data) setFullName(profile.data.full_name ?? '');
  }, [profile.data]);

  useEffect(() => {
    if (profile.error instanceof NetworkError) navigate(paths.login, { replace: true });
  }, [profile.error, navigate]);

  useEffect(() => {
    if (!isNameSaved) return;
    const timer = window.setTimeout(() => setIsNameSaved(false), 2000);
    return () => window.clearTimeout(timer);
  }, [isNameSaved]);

  const saveName = useMutation({
    mutationFn: () => updateProfile({ full_name: fullName.trim() }),
    onSuccess: (saved: Profile) => {
      setIsNameSaved(true);
      queryClient.setQueryData(profileQueryKey, saved);
    },
  });
  const savePrivacy = useMutation({
    mutationFn: (phonePrivacy: PhonePrivacy) => updateProfile({ phone_privacy: phonePrivacy }),
    onSuccess: (saved: Profile) => queryClient.setQueryData(profileQueryKey, saved),
  });

  function submitName(event: FormEvent) {
    event.preventDefault();
    setIsNameSaved(false);
    saveName.mutate();
  }

  const data = profile.data;
  return (
    <AppLayout title="Профиль администратора" navigation={adminNavigation}>
      <RoleToggle current="admin" />
      <QueryStatus
        isPending={profile.isPending}
        error={profile.error ? errorMessage(profile.error, { fallback: MESSAGES.loadFailed }) : null}
      />
      {data ? (
        <>
          <Card withBorder radius="md">
            <form onSubmit={submitName}>
              <Stack gap="sm">
                <Text fw={600}>{data.full_name || NAME_FALLBACK}</Text>
                <TextInput
                  label="ФИО"
                  value={fullName}
                  onChange={(event) => setFullName(event.currentTarget.value)}
                  maxLength={150}
                  autoComplete="name"
                />
                <SuccessLine message={isNameSaved ? NAME_SAVED_TEXT : null} />
                <ErrorLine
                  message={
                    saveName.error ? errorMessage(saveName.error, { fallback: MESSAGES.updateFailed }) : null
                  }
                />
                <Button type="submit" loading={saveName.isPending}>
                  Сохранить
                </Button>
              </Stack>
            </form>
          </Card>
          <Card withBorder radius="md">
            <Stack gap="sm">
              <TextInput label="Телефон" value={data.phone || PHONE_FALLBACK} readOnly />
              <Button variant="light" onClick={() => navigate(paths.changePhoneAdmin)}>
                Сменить номер телефона
              </Button>
              <Select
                label="Видимость номера"
                data={PHONE_PRIVACY.map((value) => ({ value, label: PHONE_PRIVACY_LABELS[value] ?? value }))}
                value={data.phone_privacy}
                onChange={(value) => {
                  if (value && value !== data.phone_privacy) savePrivacy.mutate(value as PhonePrivacy);
                }}
                allowDeselect={false}
                disabled={savePrivacy.isPending}
              />
              <SuccessLine message={savePrivacy.isSuccess ? PRIVACY_SAVED_TEXT : null} />
              <ErrorLine
                message={
                  savePrivacy.error
                    ? errorMessage(savePrivacy.error, { fallback: MESSAGES.updateFailed })
                    : null
                }
              />
              <Button variant="light" onClick={() => navigate(paths.changePassword)}>
                Сменить пароль
              </Button>
            </Stack>
          </Card>
          <BalanceCard />
          <Button variant="default" onClick={() => void logout()}>
            Выйти
          </Button>
        </>
      ) : null}
    </AppLayout>
  );
}

export default AdminProfileRoute;
