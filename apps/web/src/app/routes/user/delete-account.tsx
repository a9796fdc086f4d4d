import { AppLayout } from '../../../components/layout/app-layout';
import { userNavigation } from './navigation';

export function DeleteAccountRoute() {
  return (
    <AppLayout title="delete-account" navigation={userNavigation}>
      {null}
    </AppLayout>
  );
}

export default DeleteAccountRoute;
