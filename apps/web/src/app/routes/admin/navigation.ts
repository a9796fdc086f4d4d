import { deskNavigation } from '../../../components/layout/desk';
import { AdminPendingRequestsBadge } from '../../../features/access-requests/components/pending-requests-badge';
import { paths } from '../../paths';

/**
 * Bottom navigation of the administrator area (spec.md section 2: /admin-barriers, /admin-requests, profile); on a
 * desk it is the side navigation (deskNavigation).
 */
export const adminNavigation = deskNavigation([
  {
    to: paths.adminBarriers,
    label: 'Шлагбаумы',
    matches: [
      paths.createBarrier,
      paths.adminBarrierPage,
      paths.barrierSettings,
      paths.barrierUsers,
      paths.userProfile,
      paths.addPhoneAdmin,
      paths.editPhoneAdmin,
      paths.barrierHistoryAdmin,
      paths.deviceLogAdmin,
      paths.openingsAdmin,
      paths.emergencyHold,
      paths.importAdmin,
      paths.guestPassesAdmin,
    ],
  },
  { to: paths.adminRequests, label: 'Заявки', badge: AdminPendingRequestsBadge },
  {
    to: paths.admin,
    label: 'Профиль',
    matches: [paths.changePhoneAdmin, paths.changePassword, paths.deviceModelsAdmin],
  },
]);
