import { AppLayout } from '../../../components/layout/app-layout';
import { userNavigation } from './navigation';

export function BarrierDetailsRoute() {
  return (
    <AppLayout title="barrier-details" navigation={userNavigation}>
      {null}
    </AppLayout>
  );
}

export default BarrierDetailsRoute;
