import { Button, Card, Stack, Text, TextInput } from '@mantine/core';
import {
  COMMON_MESSAGES,
  COMMON_VALIDATION,
  NAME_FALLBACK,
  PHONE_FALLBACK,
} from '@propusk/contracts/texts/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import type { NavigationItem } from '../../../components/layout/bottom-navigation';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { MyDataCard } from '../../../features/privacy/components/my-data-card';
import {
  type Profile,
  profileQueryKey,
  profileQueryOptions,
  updateProfile,
} from '../../../features/users/api/profile-api';
import { NetworkError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/errors';
import { type AppPath, paths } from '../../../lib/paths';
import { formatPhoneForInput } from '../../../lib/phone';

export const NAME_SAVED_TEXT = 'Имя сохранено';

interface OwnProfileScreenProps {
  title: string;
  navigation: readonly NavigationItem[];
  /** The User/Administrator toggle, for a person who may switch. */
  roleToggle: ReactNode;
  changePhonePath: AppPath;
  /** What the area shows under the phone (the user's role; the administrator's privacy and password). */
  phoneCardExtra: (profile: Profile) => ReactNode;
  /** Below the cards: logging out and the area's own actions. */
  footer: ReactNode;
  /** Above the cards: the area's next step (a resident without a barrier: issue 41 major 5). */
  lead?: ReactNode;
}

/**
 * The own profile of both areas (/user and /admin, spec.md sections 2 and 4 "User screen loading"): loaded with
 * the access token (the fetch wrapper refreshes it; a lost connection goes to /login), the name with its
 * confirmation for 2 seconds, the phone with the way to change it.
 */
export function OwnProfileScreen({
  title,
  navigation,
  roleToggle,
  changePhonePath,
  phoneCardExtra,
  footer,
  lead = null,
}: OwnProfileScreenProps) {
  const navigate = useNavigate();
  const profile = useQuery(profileQueryOptions);

  useEffect(() => {
    if (profile.error instanceof NetworkError) navigate(paths.login, { replace: true });
  }, [profile.error, navigate]);

  const data = profile.data;
  return (
    <AppLayout title={title} navigation={navigation}>
      {roleToggle}
      {lead}
      <QueryStatus
        isPending={profile.isPending}
        error={profile.error ? errorMessage(profile.error, { fallback: COMMON_MESSAGES.loadFailed }) : null}
      />
      {data ? (
        <>
          <NameCard profile={data} />
          <Card withBorder radius="md">
            <Stack gap="sm">
              <TextInput label="Телефон" value={formatPhoneForInput(data.phone) || PHONE_FALLBACK} readOnly />
              <Button variant="light" onClick={() => navigate(changePhonePath)}>
                Сменить номер телефона
              </Button>
              {phoneCardExtra(data)}
            </Stack>
          </Card>
          <MyDataCard />
          {footer}
        </>
      ) : null}
    </AppLayout>
  );
}

/** Editing the full name; the saved profile the server answers replaces the loaded one. */
function NameCard({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const [fullName, setFullName] = useState(profile.full_name ?? '');
  const [isSaved, setIsSaved] = useState(false);
  const [isEmptyShown, setIsEmptyShown] = useState(false);

  useEffect(() => {
    setFullName(profile.full_name ?? '');
  }, [profile]);

  useEffect(() => {
    if (!isSaved) return;
    const timer = window.setTimeout(() => setIsSaved(false), 2000);
    return () => window.clearTimeout(timer);
  }, [isSaved]);

  const save = useMutation({
    mutationFn: () => updateProfile({ full_name: fullName.trim() }),
    onSuccess: (saved: Profile) => {
      setIsSaved(true);
      queryClient.setQueryData(profileQueryKey, saved);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setIsSaved(false);
    // An empty name would only show 'Без имени' everywhere: say what is missing instead of saving it.
    if (fullName.trim() === '') {
      setIsEmptyShown(true);
      return;
    }
    save.mutate();
  }

  return (
    <Card withBorder radius="md">
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Text fw={600}>{profile.full_name || NAME_FALLBACK}</Text>
          <TextInput
            label="ФИО"
            value={fullName}
            onChange={(event) => {
              setFullName(event.currentTarget.value);
              setIsEmptyShown(false);
            }}
            error={isEmptyShown ? COMMON_VALIDATION.nameRequired : undefined}
            maxLength={150}
            autoComplete="name"
          />
          <SuccessLine message={isSaved ? NAME_SAVED_TEXT : null} />
          <ErrorLine
            message={save.error ? errorMessage(save.error, { fallback: COMMON_MESSAGES.updateFailed }) : null}
          />
          <Button type="submit" loading={save.isPending}>
            Сохранить
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
