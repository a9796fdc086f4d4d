import { AppLayout } from '../../../components/layout/app-layout';
import { userNavigation } from './navigation';

export function BarriersRoute() {
  return (
    <AppLayout title="barriers" navigation={userNavigation}>
      {null}
    </AppLayout>
  );
}

export default BarriersRoute;
