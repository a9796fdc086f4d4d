import type { AdminAddPhoneBody } from '@propusk/contracts/phones';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { MissingBarrier } from '../../../components/missing-barrier';
import { addUserPhone, adminPhonesKey } from '../../../features/admin-phones/api/admin-phones-api';
import { phoneSaveErrorMessage } from '../../../features/phones/api/phone-errors';
import { AddPhoneForm } from '../../../features/phones/components/add-phone-form';
import { scheduleForApi } from '../../../features/phones/components/phone-validation';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { fromDateTimeLocal } from '../../../lib/dates';
import { type NavigationState, paths } from '../../../lib/paths';
import { adminNavigation } from './navigation';

/** /add-phone-admin: the administrator adds a phone for a user of his barrier; success returns to /user-profile. */
export function AddPhoneAdminRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = useNavigationState();
  const userId = state.user_id ?? null;
  const barrierId = state.barrier_id ?? null;
  const ids: NavigationState = { user_id: userId, barrier_id: barrierId };

  return (
    <AppLayout
      title="Добавить номер"
      back={{ to: paths.userProfile, label: 'Назад', state: ids }}
      navigation={adminNavigation}
    >
      {userId !== null && barrierId !== null ? (
        <AddPhoneForm
          onSubmit={async (values) => {
            const body: AdminAddPhoneBody = {
              user: userId,
              name: values.name.trim(),
              phone: values.phone,
              type: values.type,
            };
            if (values.type === 'temporary') {
              body.start_time = fromDateTimeLocal(values.start_time);
              body.end_time = fromDateTimeLocal(values.end_time);
            }
            if (values.type === 'schedule') body.schedule = scheduleForApi(values.schedule);
            try {
              await addUserPhone(barrierId, body);
              await queryClient.invalidateQueries({ queryKey: adminPhonesKey });
              // Replaced: Back after saving must not open the empty form again (issue 41).
              navigate(paths.userProfile, { replace: true, state: ids });
            } catch (caught) {
              return phoneSaveErrorMessage(caught);
            }
          }}
        />
      ) : (
        <MissingBarrier listPath={paths.adminBarriers} />
      )}
    </AppLayout>
  );
}

export default AddPhoneAdminRoute;
