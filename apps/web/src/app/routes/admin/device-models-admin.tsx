import { DEFINED_MODEL_TEXTS } from '@propusk/contracts/texts/device-models';
import { AppLayout } from '../../../components/layout/app-layout';
import { DeviceModelsPanel } from '../../../features/device-models/components/device-models-panel';
import { paths } from '../../paths';
import { adminNavigation } from './navigation';

/** /device-models-admin: «Свои модели устройств» (issue 42 item 4), from the administrator's profile. */
export function DeviceModelsAdminRoute() {
  return (
    <AppLayout
      title={DEFINED_MODEL_TEXTS.title}
      back={{ to: paths.admin, label: 'Назад' }}
      navigation={adminNavigation}
    >
      <DeviceModelsPanel />
    </AppLayout>
  );
}

export default DeviceModelsAdminRoute;
