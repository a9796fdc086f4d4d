import { AppLayout } from '../../../components/layout/app-layout';
import { userNavigation } from './navigation';

export function ChangePhoneRoute() {
  return (
    <AppLayout title="change-phone" navigation={userNavigation}>
      {null}
    </AppLayout>
  );
}

export default ChangePhoneRoute;
