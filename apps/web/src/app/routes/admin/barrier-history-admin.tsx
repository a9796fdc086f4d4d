import { AppLayout } from '../../../components/layout/app-layout';
import { useIsDesk } from '../../../components/layout/desk';
import { MissingBarrier } from '../../../components/missing-barrier';
import { HistoryView } from '../../../features/actions/components/history-view';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { paths } from '../../../lib/paths';
import { adminNavigation } from './navigation';

/** /barrier-history-admin: everything that happened on one of the administrator's barriers. */
export function BarrierHistoryAdminRoute() {
  const isDesk = useIsDesk();
  const barrierId = useNavigationState().barrier_id ?? null;
  return (
    <AppLayout
      title="История изменений (Админ)"
      back={{ to: paths.adminBarrierPage, label: 'Назад', state: { barrier_id: barrierId } }}
      navigation={adminNavigation}
      wide
    >
      {barrierId ? (
        <HistoryView scope="admin" barrierId={barrierId} table={isDesk} />
      ) : (
        <MissingBarrier listPath={paths.adminBarriers} />
      )}
    </AppLayout>
  );
}

export default BarrierHistoryAdminRoute;
