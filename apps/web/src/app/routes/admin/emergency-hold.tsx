import { RELAY_TEXTS } from '@propusk/contracts/texts/relay';
import { AppLayout } from '../../../components/layout/app-layout';
import { EmergencyHoldView } from '../../../features/relay/components/emergency-hold-view';
import { paths } from '../../../lib/paths';
import { adminNavigation } from './navigation';

/** /emergency-hold: hold the barriers open (п. 71 Правил противопожарного режима, ПП РФ № 1479). */
export function EmergencyHoldRoute() {
  return (
    <AppLayout
      title={RELAY_TEXTS.emergency}
      back={{ to: paths.adminBarriers, label: 'Назад' }}
      navigation={adminNavigation}
    >
      <EmergencyHoldView />
    </AppLayout>
  );
}

export default EmergencyHoldRoute;
