import { Button, Stack, TextInput } from '@mantine/core';
import { ROLE_LABELS } from '@propusk/contracts/texts/profile';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { RoleToggle } from '../../../components/role-toggle';
import { ResidentNextStep } from '../../../features/barriers/components/first-steps';
import { NotificationSettings } from '../../../features/notifications/components/notification-settings';
import { getIsAdmin, isAdminQueryKey, profileQueryOptions } from '../../../features/users/api/profile-api';
import { useLogout } from '../../../hooks/use-logout';
import { paths } from '../../../lib/paths';
import { OwnProfileScreen } from '../shared/own-profile-screen';
import { userNavigation } from './navigation';

/**
 * /user: the profile (spec.md sections 2 and 4 "User screen loading"): name, phone change, the role, log out,
 * delete the profile; after it loads, an admin check on the phone decides whether the toggle shows.
 */
export function ProfileRoute() {
  const navigate = useNavigate();
  const logout = useLogout();
  const phone = useQuery(profileQueryOptions).data?.phone;
  const isAdmin = useQuery({
    queryKey: isAdminQueryKey(phone ?? ''),
    queryFn: () => getIsAdmin(phone ?? ''),
    enabled: Boolean(phone),
  });

  return (
    <OwnProfileScreen
      title="Профиль"
      navigation={userNavigation}
      roleToggle={isAdmin.data ? <RoleToggle current="user" /> : null}
      changePhonePath={paths.changePhone}
      lead={<ResidentNextStep onFind={() => navigate(`${paths.barriers}?tab=all`)} />}
      phoneCardExtra={(profile) => (
        <TextInput label="Роль" value={ROLE_LABELS[profile.role] ?? profile.role} readOnly />
      )}
      footer={
        <Stack gap="sm">
          <NotificationSettings />
          <Button variant="default" onClick={() => void logout()}>
            Выйти
          </Button>
          <Button color="red.9" variant="outline" onClick={() => navigate(paths.deleteAccount)}>
            Удалить профиль
          </Button>
        </Stack>
      }
    />
  );
}

export default ProfileRoute;
