import {
  getPhone,
  getSchedule,
  myPhonesQueryKey,
  phoneQueryKey,
  putSchedule,
  scheduleQueryKey,
  updatePhone,
} from '../../../features/phones/api/phones-api';
import { paths } from '../../../lib/paths';
import { type EditPhoneCalls, EditPhoneScreen } from '../shared/edit-phone-screen';
import { userNavigation } from './navigation';

const userPhoneCalls: EditPhoneCalls = {
  phoneQueryKey,
  getPhone,
  scheduleQueryKey,
  getSchedule,
  updatePhone: (phone, body) => updatePhone(phone.id, body),
  putSchedule,
  staleAfterSave: (phoneId, barrierId) => [
    phoneQueryKey(phoneId),
    scheduleQueryKey(phoneId),
    ...(barrierId ? [myPhonesQueryKey(barrierId)] : []),
  ],
};

/** /edit-phone ('Редактировать номер'); after saving it returns to that barrier's /mybarrier. */
export function EditPhoneRoute() {
  return (
    <EditPhoneScreen
      navigation={userNavigation}
      calls={userPhoneCalls}
      returnTo={({ barrierId }) => ({ to: paths.myBarrier, state: { barrier_id: barrierId } })}
    />
  );
}

export default EditPhoneRoute;
