import { MESSAGES } from '@propusk/contracts/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine } from '../../../components/status-line';
import { phoneSaveErrorMessage } from '../../../features/phones/api/phone-errors';
import {
  getPhone,
  getSchedule,
  myPhonesQueryKey,
  phoneQueryKey,
  putSchedule,
  scheduleQueryKey,
  updatePhone,
} from '../../../features/phones/api/phones-api';
import { EditPhoneForm } from '../../../features/phones/components/edit-phone-form';
import { scheduleForApi, toWeeklySchedule } from '../../../features/phones/components/phone-validation';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { NetworkError } from '../../../lib/api-client';
import { fromDateTimeLocal, toDateTimeLocal } from '../../../lib/dates';
import { errorMessage } from '../../../lib/errors';
import { type NavigationState, paths } from '../../paths';
import { userNavigation } from './navigation';

/** /edit-phone ('Редактировать номер'); after saving it returns to that barrier's /mybarrier. */
export function EditPhoneRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = useNavigationState();
  const phoneId = state.phone_id ?? null;
  const phone = useQuery({
    queryKey: phoneQueryKey(phoneId ?? 0),
    queryFn: () => getPhone(phoneId ?? 0),
    enabled: phoneId !== null,
  });
  const isSchedule = phone.data?.type === 'schedule';
  const schedule = useQuery({
    queryKey: scheduleQueryKey(phoneId ?? 0),
    queryFn: () => getSchedule(phoneId ?? 0),
    enabled: phoneId !== null && isSchedule,
  });
  const barrierId = phone.data?.barrier ?? state.barrier_id ?? null;
  const back = { to: paths.myBarrier, label: 'Назад', state: { barrier_id: barrierId } };
  const loadError = phone.error ?? schedule.error;
  const isReady = phone.data && (!isSchedule || schedule.data);

  return (
    <AppLayout title="Редактировать номер" back={back} navigation={userNavigation}>
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
              const updated = await updatePhone(current.id, {
                name: values.name.trim(),
                ...(current.type === 'temporary'
                  ? {
                      start_time: fromDateTimeLocal(values.start_time),
                      end_time: fromDateTimeLocal(values.end_time),
                    }
                  : {}),
              });
              if (current.type === 'schedule') await putSchedule(current.id, scheduleForApi(values.schedule));
              const targetBarrier = updated?.barrier ?? barrierId;
              await Promise.all([
                queryClient.invalidateQueries({ queryKey: phoneQueryKey(current.id) }),
                queryClient.invalidateQueries({ queryKey: scheduleQueryKey(current.id) }),
                targetBarrier
                  ? queryClient.invalidateQueries({ queryKey: myPhonesQueryKey(targetBarrier) })
                  : null,
              ]);
              navigate(paths.myBarrier, { state: { barrier_id: targetBarrier } satisfies NavigationState });
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

export default EditPhoneRoute;
