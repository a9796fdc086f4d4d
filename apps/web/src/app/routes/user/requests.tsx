import { AppLayout } from '../../../components/layout/app-layout';
import { userNavigation } from './navigation';

export function RequestsRoute() {
  return (
    <AppLayout title="requests" navigation={userNavigation}>
      {null}
    </AppLayout>
  );
}

export default RequestsRoute;
