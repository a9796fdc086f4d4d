import { MESSAGES } from '@propusk/contracts/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine } from '../../../components/status-line';
import {
  adminPhoneQueryKey,
  adminPhonesKey,
  adminScheduleQueryKey,
  getAdminPhone,
  getAdminSchedule,
  putAdminSchedule,
  updateAdminPhone,
} from '../../../features/admin-phones/api/admin-phones-api';
import { phoneSaveErrorMessage } from '../../../features/phones/api/phone-errors';
import { EditPhoneForm } from '../../../features/phones/components/edit-phone-form';
import { scheduleForApi, toWeeklySchedule } from '../../../features/phones/components/phone-validation';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { NetworkError } from '../../../lib/api-client';
import { fromDateTimeLocal, toDateTimeLocal } from '../../../lib/dates';
import { errorMessage } from '../../../lib/errors';
import { type NavigationState, paths } from '../../paths';
import { adminNavigation } from './navigation';

/**
 * /edit-phone-admin ('Редактировать номер'): the administrator edits a user's phone; after saving it goes to
 * /user-profile with user_id and barrier_id (from the response's barrier, else the one it came with).
 */
export function EditPhoneAdminRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = useNavigationState();
  const phoneId = state.phone_id ?? null;
  const phone = useQuery({
    queryKey: adminPhoneQueryKey(phoneId ?? 0),
    queryFn: () => getAdminPhone(phoneId ?? 0),
    enabled: phoneId !== null,
  });
  const isSchedule = phone.data?.type === 'schedule';
  const schedule = useQuery({
    queryKey: adminScheduleQueryKey(phoneId ?? 0),
    queryFn: () => getAdminSchedule(phoneId ?? 0),
    enabled: phoneId !== null && isSchedule,
  });
  const userId = phone.data?.user ?? state.user_id ?? null;
  const barrierId = phone.data?.barrier ?? state.barrier_id ?? null;
  const back = { to: paths.userProfile, label: 'Назад', state: { user_id: userId, barrier_id: barrierId } };
  const loadError = phone.error ?? schedule.error;
  const isReady = phone.data && (!isSchedule || schedule.data);

  return (
    <AppLayout title="Редактировать номер" back={back} navigation={adminNavigation}>
      {phoneId === null ? <ErrorLine message={MESSAGES.loadFailed} /> : null}
      <QueryStatus
        isPending={phoneId !== null && (phone.isPending || (isSchedule && schedule.isPending))}
        error={loadError ? errorMessage(loadError, { fallback: MESSAGES.loadFailed }) : null}
      />
      {isReady && phone.data ? (
        <EditPhoneForm
          type={phone.data.type}
          phoneNumber={phone.data.phone}
          initialValues={{
            name: phone.data.name,
            start_time: toDateTimeLocal(phone.data.start_time),
            end_time: toDateTimeLocal(phone.data.end_time),
            schedule: toWeeklySchedule(schedule.data ?? phone.data.schedule),
          }}
          onSubmit={async (values) => {
            const current = phone.data;
            if (!current) return;
            try {
              const updated = await updateAdminPhone(current.id, {
                user: current.user,
                name: values.name.trim(),
                ...(current.type === 'temporary'
                  ? {
                      start_time: fromDateTimeLocal(values.start_time),
                      end_time: fromDateTimeLocal(values.end_time),
                    }
                  : {}),
              });
              if (current.type === 'schedule')
                await putAdminSchedule(current.id, scheduleForApi(values.schedule));
              await queryClient.invalidateQueries({ queryKey: adminPhonesKey });
              navigate(paths.userProfile, {
                state: {
                  user_id: current.user,
                  barrier_id: updated?.barrier ?? barrierId,
                } satisfies NavigationState,
              });
            } catch (caught) {
              if (caught instanceof NetworkError) return MESSAGES.network;
              return phoneSaveErrorMessage(caught);
            }
          }}
        />
      ) : null}
    </AppLayout>
  );
}

export default EditPhoneAdminRoute;
