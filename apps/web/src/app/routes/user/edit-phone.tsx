import { AppLayout } from '../../../components/layout/app-layout';
import { userNavigation } from './navigation';

export function EditPhoneRoute() {
  return (
    <AppLayout title="edit-phone" navigation={userNavigation}>
      {null}
    </AppLayout>
  );
}

export default EditPhoneRoute;
