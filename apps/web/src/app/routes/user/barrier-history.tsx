import { AppLayout } from '../../../components/layout/app-layout';
import { MissingBarrier } from '../../../components/missing-barrier';
import { HistoryView } from '../../../features/actions/components/history-view';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { paths } from '../../../lib/paths';
import { userNavigation } from './navigation';

/** /barrier-history: the changes to the user's own phones on one barrier. */
export function BarrierHistoryRoute() {
  const { barrier_id: barrierId } = useNavigationState();
  return (
    <AppLayout
      title="История изменений"
      back={{ to: paths.myBarrier, label: 'Назад', state: { barrier_id: barrierId } }}
      navigation={userNavigation}
    >
      {barrierId ? (
        <HistoryView scope="user" barrierId={barrierId} />
      ) : (
        <MissingBarrier listPath={paths.barriers} />
      )}
    </AppLayout>
  );
}

export default BarrierHistoryRoute;
