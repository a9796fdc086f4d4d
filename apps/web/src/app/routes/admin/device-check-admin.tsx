import { DEVICE_CHECK_TEXTS } from '@propusk/contracts/texts/device-check';
import { AppLayout } from '../../../components/layout/app-layout';
import { MissingBarrier } from '../../../components/missing-barrier';
import { AlarmLayoutPanel } from '../../../features/device-check/components/alarm-layout-panel';
import { DeviceCheckPanel } from '../../../features/device-check/components/device-check-panel';
import { DeviceProfileForm } from '../../../features/device-check/components/device-profile-form';
import { FactoryResetCard } from '../../../features/device-check/components/factory-reset-card';
import { ProfileFileCard } from '../../../features/device-check/components/profile-file-card';
import { DeviceHealthCard } from '../../../features/device-log/components/device-health-card';
import { UnverifiedModelBanner } from '../../../features/device-models/components/unverified-model-banner';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { paths } from '../../paths';
import { adminNavigation } from './navigation';

/**
 * /device-check-admin: "Проверить устройство" for one of the administrator's barriers: its health, the
 * read-back with its differences and the repair, «Устройство сброшено к заводским настройкам», and the device
 * profile.
 */
export function DeviceCheckAdminRoute() {
  const barrierId = useNavigationState().barrier_id ?? null;
  return (
    <AppLayout
      title={DEVICE_CHECK_TEXTS.title}
      back={{ to: paths.adminBarrierPage, label: 'Назад', state: { barrier_id: barrierId } }}
      navigation={adminNavigation}
    >
      {barrierId ? (
        <>
          <UnverifiedModelBanner barrierId={barrierId} />
          <DeviceHealthCard barrierId={barrierId} />
          <DeviceCheckPanel barrierId={barrierId} />
          <AlarmLayoutPanel barrierId={barrierId} />
          <FactoryResetCard barrierId={barrierId} />
          <DeviceProfileForm barrierId={barrierId} />
          <ProfileFileCard barrierId={barrierId} />
        </>
      ) : (
        <MissingBarrier listPath={paths.adminBarriers} />
      )}
    </AppLayout>
  );
}

export default DeviceCheckAdminRoute;
