import { CONFORMANCE_TEXTS } from '@propusk/contracts/texts/conformance';
import { AppLayout } from '../../../components/layout/app-layout';
import { MissingBarrier } from '../../../components/missing-barrier';
import { ConformancePanel } from '../../../features/conformance/components/conformance-panel';
import { UnverifiedModelBanner } from '../../../features/device-models/components/unverified-model-banner';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { paths } from '../../paths';
import { adminNavigation } from './navigation';

/** /conformance-admin: «Проверка устройства по модели» for one of the administrator's barriers (issue 42). */
export function ConformanceAdminRoute() {
  const barrierId = useNavigationState().barrier_id ?? null;
  return (
    <AppLayout
      title={CONFORMANCE_TEXTS.title}
      back={{ to: paths.adminBarrierPage, label: 'Назад', state: { barrier_id: barrierId } }}
      navigation={adminNavigation}
    >
      <UnverifiedModelBanner barrierId={barrierId} />
      {barrierId ? (
        <ConformancePanel barrierId={barrierId} />
      ) : (
        <MissingBarrier listPath={paths.adminBarriers} />
      )}
    </AppLayout>
  );
}

export default ConformanceAdminRoute;
