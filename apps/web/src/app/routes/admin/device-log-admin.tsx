import { DEVICE_LOG_TEXTS } from '@propusk/contracts/texts/device-log';
import { AppLayout } from '../../../components/layout/app-layout';
import { useIsDesk } from '../../../components/layout/desk';
import { MissingBarrier } from '../../../components/missing-barrier';
import { DeviceHealthCard } from '../../../features/device-log/components/device-health-card';
import { DeviceLogView } from '../../../features/device-log/components/device-log-view';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { paths } from '../../../lib/paths';
import { adminNavigation } from './navigation';

/** /device-log-admin: the conversation with the device of one of the administrator's barriers. */
export function DeviceLogAdminRoute() {
  const isDesk = useIsDesk();
  const barrierId = useNavigationState().barrier_id ?? null;
  return (
    <AppLayout
      title={DEVICE_LOG_TEXTS.title}
      back={{ to: paths.adminBarrierPage, label: 'Назад', state: { barrier_id: barrierId } }}
      navigation={adminNavigation}
      wide
    >
      {barrierId ? (
        <>
          <DeviceHealthCard barrierId={barrierId} />
          <DeviceLogView barrierId={barrierId} table={isDesk} />
        </>
      ) : (
        <MissingBarrier listPath={paths.adminBarriers} />
      )}
    </AppLayout>
  );
}

export default DeviceLogAdminRoute;
