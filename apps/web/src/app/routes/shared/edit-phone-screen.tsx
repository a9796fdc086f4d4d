import type { UpdatePhoneBody, WeeklyScheduleInput } from '@propusk/contracts/phones';
import { COMMON_MESSAGES } from '@propusk/contracts/texts/common';
import { type QueryKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import type { NavigationItem } from '../../../components/layout/bottom-navigation';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine } from '../../../components/status-line';
import { phoneSaveErrorMessage } from '../../../features/phones/api/phone-errors';
import type { Phone } from '../../../features/phones/api/phones-api';
import { EditPhoneForm } from '../../../features/phones/components/edit-phone-form';
import { scheduleForApi, toWeeklySchedule } from '../../../features/phones/components/phone-validation';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { NetworkError } from '../../../lib/api-client';
import { fromDateTimeLocal, toDateTimeLocal } from '../../../lib/dates';
import { errorMessage } from '../../../lib/errors';
import type { AppPath, NavigationState } from '../../../lib/paths';

/** The calls of one side (`/api/phones/…` or `/api/admin/phones/…`) with their query keys. */
export interface EditPhoneCalls {
  phoneQueryKey: (id: number) => QueryKey;
  getPhone: (id: number) => Promise<Phone>;
  scheduleQueryKey: (id: number) => QueryKey;
  getSchedule: (id: number) => Promise<WeeklyScheduleInput>;
  updatePhone: (phone: Phone, body: UpdatePhoneBody) => Promise<Phone>;
  putSchedule: (id: number, schedule: WeeklyScheduleInput) => Promise<unknown>;
  /** What a save makes stale, given the phone and its barrier. */
  staleAfterSave: (phoneId: number, barrierId: number | null) => QueryKey[];
}

interface EditPhoneScreenProps {
  navigation: readonly NavigationItem[];
  calls: EditPhoneCalls;
  /** Where the back button and a successful save lead, given the phone's barrier and owner. */
  returnTo: (ids: { barrierId: number | null; userId: number | null }) => {
    to: AppPath;
    state: NavigationState;
  };
}

/**
 * 'Редактировать номер' of both areas (/edit-phone and /edit-phone-admin, spec.md section 2): the phone (and
 * its schedule) loaded by `phone_id` from navigation state, the form, then the save: name (and the window of a
 * temporary phone), the weekly schedule of a schedule phone. The barrier comes from the saved phone, else from
 * the one the screen came with.
 */
export function EditPhoneScreen({ navigation, calls, returnTo }: EditPhoneScreenProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = useNavigationState();
  const phoneId = state.phone_id ?? null;
  const phone = useQuery({
    queryKey: calls.phoneQueryKey(phoneId ?? 0),
    queryFn: () => calls.getPhone(phoneId ?? 0),
    enabled: phoneId !== null,
  });
  const isSchedule = phone.data?.type === 'schedule';
  const schedule = useQuery({
    queryKey: calls.scheduleQueryKey(phoneId ?? 0),
    queryFn: () => calls.getSchedule(phoneId ?? 0),
    enabled: phoneId !== null && isSchedule,
  });
  const userId = phone.data?.user ?? state.user_id ?? null;
  const barrierId = phone.data?.barrier ?? state.barrier_id ?? null;
  const loadError = phone.error ?? schedule.error;
  const isReady = phone.data && (!isSchedule || schedule.data);

  return (
    <AppLayout
      title="Редактировать номер"
      back={{ ...returnTo({ barrierId, userId }), label: 'Назад' }}
      navigation={navigation}
    >
      {phoneId === null ? <ErrorLine message={COMMON_MESSAGES.loadFailed} /> : null}
      <QueryStatus
        isPending={phoneId !== null && (phone.isPending || (isSchedule && schedule.isPending))}
        error={loadError ? errorMessage(loadError, { fallback: COMMON_MESSAGES.loadFailed }) : null}
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
              const updated = await calls.updatePhone(current, {
                name: values.name.trim(),
                ...(current.type === 'temporary'
                  ? {
                      start_time: fromDateTimeLocal(values.start_time),
                      end_time: fromDateTimeLocal(values.end_time),
                    }
                  : {}),
              });
              if (current.type === 'schedule')
                await calls.putSchedule(current.id, scheduleForApi(values.schedule));
              const savedBarrierId = updated?.barrier ?? barrierId;
              await Promise.all(
                calls
                  .staleAfterSave(current.id, savedBarrierId)
                  .map((queryKey) => queryClient.invalidateQueries({ queryKey })),
              );
              const destination = returnTo({ barrierId: savedBarrierId, userId: current.user });
              // Replaced: Back after saving must not open the saved form again (issue 41).
              navigate(destination.to, { replace: true, state: destination.state });
            } catch (caught) {
              if (caught instanceof NetworkError) return COMMON_MESSAGES.network;
              return phoneSaveErrorMessage(caught);
            }
          }}
        />
      ) : null}
    </AppLayout>
  );
}
