import type { NavigationItem } from '../../../components/layout/bottom-navigation';
import { UserPendingRequestsBadge } from '../../../features/access-requests/components/pending-requests-badge';
import { paths } from '../../../lib/paths';

/** Bottom navigation of the user area (spec.md section 2: barriers, requests, profile). */
export const userNavigation: readonly NavigationItem[] = [
  {
    to: paths.barriers,
    label: 'Шлагбаумы',
    matches: [paths.barrierDetails, paths.myBarrier, paths.addPhone, paths.editPhone, paths.barrierHistory],
  },
  { to: paths.requests, label: 'Заявки', badge: UserPendingRequestsBadge },
  { to: paths.user, label: 'Профиль', matches: [paths.changePhone, paths.deleteAccount] },
];
