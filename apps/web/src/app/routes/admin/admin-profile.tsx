import { Button, Select } from '@mantine/core';
import { PHONE_PRIVACY, type PhonePrivacy } from '@propusk/contracts/common';
import { COMMON_MESSAGES } from '@propusk/contracts/texts/common';
import { DEFINED_MODEL_TEXTS } from '@propusk/contracts/texts/device-models';
import { PHONE_PRIVACY_LABELS } from '@propusk/contracts/texts/profile';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate } from 'react-router';
import { RoleToggle } from '../../../components/role-toggle';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { OwnInvitationsBanner } from '../../../features/access-requests/components/own-invitations-banner';
import { BalanceCard } from '../../../features/admin-profile/components/balance-card';
import { NotificationSettings } from '../../../features/notifications/components/notification-settings';
import {
  type Profile,
  profileQueryKey,
  profileQueryOptions,
  updateProfile,
} from '../../../features/users/api/profile-api';
import { useLogout } from '../../../hooks/use-logout';
import { errorMessage } from '../../../lib/errors';
import { paths } from '../../paths';
import { OwnProfileScreen } from '../shared/own-profile-screen';
import { adminNavigation } from './navigation';

export const PRIVACY_SAVED_TEXT = 'Видимость номера сохранена';

/**
 * /admin: the administrator profile (spec.md section 2): name, phone change, phone privacy, password change,
 * the SMS balance, the toggle back to /user and logging out. Each change patches one field.
 */
export function AdminProfileRoute() {
  const logout = useLogout();
  const profile = useQuery(profileQueryOptions);
  if (profile.data?.password_change_required) return <Navigate to={paths.changePassword} replace />;
  return (
    <OwnProfileScreen
      title="Профиль администратора"
      navigation={adminNavigation}
      roleToggle={<RoleToggle current="admin" />}
      lead={<OwnInvitationsBanner />}
      changePhonePath={paths.changePhoneAdmin}
      phoneCardExtra={(profile) => <PrivacyAndPassword profile={profile} />}
      footer={
        <>
          <BalanceCard />
          <NotificationSettings />
          <Button variant="default" onClick={() => void logout()}>
            Выйти
          </Button>
        </>
      }
    />
  );
}

function PrivacyAndPassword({ profile }: { profile: Profile }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const savePrivacy = useMutation({
    mutationFn: (phonePrivacy: PhonePrivacy) => updateProfile({ phone_privacy: phonePrivacy }),
    onSuccess: (saved: Profile) => queryClient.setQueryData(profileQueryKey, saved),
  });

  return (
    <>
      <Select
        label="Видимость номера"
        data={PHONE_PRIVACY.map((value) => ({ value, label: PHONE_PRIVACY_LABELS[value] ?? value }))}
        value={profile.phone_privacy}
        onChange={(value) => {
          if (value && value !== profile.phone_privacy) savePrivacy.mutate(value as PhonePrivacy);
        }}
        allowDeselect={false}
        disabled={savePrivacy.isPending}
      />
      <SuccessLine message={savePrivacy.isSuccess ? PRIVACY_SAVED_TEXT : null} />
      <ErrorLine
        message={
          savePrivacy.error
            ? errorMessage(savePrivacy.error, { fallback: COMMON_MESSAGES.updateFailed })
            : null
        }
      />
      <Button variant="light" onClick={() => navigate(paths.changePassword)}>
        Сменить пароль
      </Button>
      <Button variant="light" onClick={() => navigate(paths.deviceModelsAdmin)}>
        {DEFINED_MODEL_TEXTS.link}
      </Button>
    </>
  );
}

export default AdminProfileRoute;
