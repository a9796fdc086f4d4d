import { RELAY_TEXTS } from '@propusk/contracts/texts/relay';
import { AppLayout } from '../../../components/layout/app-layout';
import { useIsDesk } from '../../../components/layout/desk';
import { MissingBarrier } from '../../../components/missing-barrier';
import { OpeningsList } from '../../../features/relay/components/openings-list';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { paths } from '../../../lib/paths';
import { adminNavigation } from './navigation';

/** /openings-admin: every opening of one of the administrator's barriers, with filters. */
export function OpeningsAdminRoute() {
  const isDesk = useIsDesk();
  const barrierId = useNavigationState().barrier_id ?? null;
  return (
    <AppLayout
      title={RELAY_TEXTS.openingsLog}
      back={{ to: paths.adminBarrierPage, label: 'Назад', state: { barrier_id: barrierId } }}
      navigation={adminNavigation}
      wide
    >
      {barrierId ? (
        <OpeningsList side="admin" barrierId={barrierId} table={isDesk} />
      ) : (
        <MissingBarrier listPath={paths.adminBarriers} />
      )}
    </AppLayout>
  );
}

export default OpeningsAdminRoute;
