import { AppLayout } from '../../../components/layout/app-layout';
import { userNavigation } from './navigation';

export function MyBarrierRoute() {
  return (
    <AppLayout title="my-barrier" navigation={userNavigation}>
      {null}
    </AppLayout>
  );
}

export default MyBarrierRoute;
