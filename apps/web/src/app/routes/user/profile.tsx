import { Button, Card, Stack, Text, TextInput } from '@mantine/core';
import { MESSAGES, NAME_FALLBACK, PHONE_FALLBACK, ROLE_LABELS } from '@propusk/contracts/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { QueryStatus } from '../../../components/query-status';
import { RoleToggle } from '../../../components/role-toggle';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import {
  getIsAdmin,
  isAdminQueryKey,
  profileQueryKey,
  profileQueryOptions,
  updateProfile,
} from '../../../features/users/api/profile-api';
import { useLogout } from '../../../hooks/use-logout';
import { NetworkError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/errors';
import { paths } from '../../paths';
import { userNavigation } from './navigation';

export const NAME_SAVED_TEXT = 'Имя сохранено';

/** /user: the profile (spec.md sections 2 and 4 "User screen loading"). */
export function ProfileRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logout = useLogout();
  const profile = useQuery(profileQueryOptions);
  const phone = profile.data?.phone;
  const isAdmin = useQuery({
    queryKey: isAdminQueryKey(phone ?? ''),
    queryFn: () => getIsAdmin(phone ?? ''),
    enabled: Boolean(phone),
  });
  const [fullName, setFullName] = useState('');
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (profile.data) setFullName(profile.data.full_name ?? '');
  }, [profile.data]);

  // A network error while loading the profile ends the session screen (spec.md section 4).
  useEffect(() => {
    if (profile.error instanceof NetworkError) navigate(paths.login, { replace: true });
  }, [profile.error, navigate]);

  useEffect(() => {
    if (!saved) return;
    const timer = window.setTimeout(() => setSaved(false), 2000);
    return () => window.clearTimeout(timer);
  }, [saved]);

  const save = useMutation({
    mutationFn: () => updateProfile({ full_name: fullName.trim() }),
    onSuccess: async () => {
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: profileQueryKey });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    save.mutate();
  }

  const data = profile.data;
  return (
    <AppLayout title="Профиль" navigation={userNavigation}>
      {isAdmin.data ? <RoleToggle current="user" /> : null}
      <QueryStatus
        isPending={profile.isPending}
        error={profile.error ? errorMessage(profile.error, { fallback: MESSAGES.loadFailed }) : null}
      />
      {data ? (
        <>
          <Card withBorder radius="md">
            <form onSubmit={submit}>
              <Stack gap="sm">
                <Text fw={600}>{data.full_name || NAME_FALLBACK}</Text>
                <TextInput
                  label="ФИО"
                  value={fullName}
                  onChange={(event) => setFullName(event.currentTarget.value)}
                  maxLength={150}
                  autoComplete="name"
                />
                <SuccessLine message={saved ? NAME_SAVED_TEXT : null} />
                <ErrorLine
                  message={save.error ? errorMessage(save.error, { fallback: MESSAGES.updateFailed }) : null}
                />
                <Button type="submit" loading={save.isPending}>
                  Сохранить
                </Button>
              </Stack>
            </form>
          </Card>
          <Card withBorder radius="md">
            <Stack gap="sm">
              <TextInput label="Телефон" value={data.phone || PHONE_FALLBACK} readOnly />
              <Button variant="light" onClick={() => navigate(paths.changePhone)}>
                Сменить номер телефона
              </Button>
              <TextInput label="Роль" value={ROLE_LABELS[data.role] ?? data.role} readOnly />
            </Stack>
          </Card>
          <Stack gap="sm">
            <Button variant="default" onClick={() => void logout()}>
              Выйти
            </Button>
            <Button color="red.9" variant="outline" onClick={() => navigate(paths.deleteAccount)}>
              Удалить профиль
            </Button>
          </Stack>
        </>
      ) : null}
    </AppLayout>
  );
}

export default ProfileRoute;
