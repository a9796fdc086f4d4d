import type { AddPhoneBody } from '@propusk/contracts/phones';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { MissingBarrier } from '../../../components/missing-barrier';
import { pushClientLog } from '../../../features/client-logs/api/client-logs-api';
import { phoneSaveErrorMessage } from '../../../features/phones/api/phone-errors';
import { addPhone, myPhonesQueryKey } from '../../../features/phones/api/phones-api';
import { AddPhoneForm } from '../../../features/phones/components/add-phone-form';
import { scheduleForApi } from '../../../features/phones/components/phone-validation';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { fromDateTimeLocal } from '../../../lib/dates';
import { type NavigationState, paths } from '../../../lib/paths';
import { userNavigation } from './navigation';

/** /add-phone: an extra phone on a barrier the user has access to; success returns to /mybarrier. */
export function AddPhoneRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { barrier_id: barrierId } = useNavigationState();
  const back = { to: paths.myBarrier, label: 'Назад', state: { barrier_id: barrierId } };

  return (
    <AppLayout title="Добавить номер" back={back} navigation={userNavigation}>
      {barrierId ? (
        <AddPhoneForm
          onSubmit={async (values) => {
            const body: AddPhoneBody = { name: values.name.trim(), phone: values.phone, type: values.type };
            if (values.type === 'temporary') {
              body.start_time = fromDateTimeLocal(values.start_time);
              body.end_time = fromDateTimeLocal(values.end_time);
            }
            if (values.type === 'schedule') body.schedule = scheduleForApi(values.schedule);
            try {
              const phone = await addPhone(barrierId, body);
              pushClientLog({
                level: 'info',
                page: 'add-phone',
                message: `phone ${phone.id} (${values.type}) added to barrier ${barrierId}`,
              });
              await queryClient.invalidateQueries({ queryKey: myPhonesQueryKey(barrierId) });
              // Replaced: Back after saving must not open the empty form again (issue 41).
              navigate(paths.myBarrier, {
                replace: true,
                state: { barrier_id: barrierId } satisfies NavigationState,
              });
            } catch (caught) {
              const message = phoneSaveErrorMessage(caught);
              pushClientLog({ level: 'warn', page: 'add-phone', message: `add phone failed: ${message}` });
              return message;
            }
          }}
        />
      ) : (
        <MissingBarrier listPath={paths.barriers} />
      )}
    </AppLayout>
  );
}

export default AddPhoneRoute;
