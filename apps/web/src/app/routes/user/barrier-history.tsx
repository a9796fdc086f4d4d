import { AppLayout } from '../../../components/layout/app-layout';
import { userNavigation } from './navigation';

export function BarrierHistoryRoute() {
  return (
    <AppLayout title="barrier-history" navigation={userNavigation}>
      {null}
    </AppLayout>
  );
}

export default BarrierHistoryRoute;
