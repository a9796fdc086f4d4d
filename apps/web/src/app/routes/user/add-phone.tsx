import { AppLayout } from '../../../components/layout/app-layout';
import { userNavigation } from './navigation';

export function AddPhoneRoute() {
  return (
    <AppLayout title="add-phone" navigation={userNavigation}>
      {null}
    </AppLayout>
  );
}

export default AddPhoneRoute;
