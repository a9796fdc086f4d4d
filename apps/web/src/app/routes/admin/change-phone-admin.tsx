import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { QueryStatus } from '../../../components/query-status';
import { profileQueryOptions } from '../../../features/users/api/profile-api';
import { readStored } from '../../../lib/storage';
import { paths } from '../../paths';
import { ChangePhoneFlow } from '../shared/change-phone-flow';

/** /change-phone-admin: the administrator's four-step phone change, back to /admin. */
export function ChangePhoneAdminRoute() {
  const navigate = useNavigate();
  const profile = useQuery(profileQueryOptions);
  const currentPhone = profile.data?.phone ?? readStored('phone');
  return (
    <AppLayout title="Смена номера телефона" back={{ to: paths.admin, label: 'Назад' }}>
      {currentPhone ? (
        <ChangePhoneFlow currentPhone={currentPhone} onDone={() => navigate(paths.admin)} />
      ) : (
        <QueryStatus isPending={profile.isPending} error={null} />
      )}
    </AppLayout>
  );
}

export default ChangePhoneAdminRoute;
