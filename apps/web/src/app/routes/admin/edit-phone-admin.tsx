import {
  adminPhoneQueryKey,
  adminPhonesKey,
  adminScheduleQueryKey,
  getAdminPhone,
  getAdminSchedule,
  putAdminSchedule,
  updateAdminPhone,
} from '../../../features/admin-phones/api/admin-phones-api';
import { paths } from '../../../lib/paths';
import { type EditPhoneCalls, EditPhoneScreen } from '../shared/edit-phone-screen';
import { adminNavigation } from './navigation';

const adminPhoneCalls: EditPhoneCalls = {
  phoneQueryKey: adminPhoneQueryKey,
  getPhone: getAdminPhone,
  scheduleQueryKey: adminScheduleQueryKey,
  getSchedule: getAdminSchedule,
  updatePhone: (phone, body) => updateAdminPhone(phone.id, { user: phone.user, ...body }),
  putSchedule: putAdminSchedule,
  staleAfterSave: () => [adminPhonesKey],
};

/**
 * /edit-phone-admin ('Редактировать номер'): the administrator edits a user's phone; after saving it goes to
 * /user-profile with user_id and barrier_id (from the response's barrier, else the one it came with).
 */
export function EditPhoneAdminRoute() {
  return (
    <EditPhoneScreen
      navigation={adminNavigation}
      calls={adminPhoneCalls}
      returnTo={({ barrierId, userId }) => ({
        to: paths.userProfile,
        state: { user_id: userId, barrier_id: barrierId },
      })}
    />
  );
}

export default EditPhoneAdminRoute;
