import { Button, Text } from '@mantine/core';
import { AppLayout } from '../../../components/layout/app-layout';
import { RoleToggle } from '../../../components/role-toggle';
import { useLogout } from '../../../hooks/use-logout';

/** Stands in for the administrator profile until the administrator area is built (issue 6). */
export function AdminPlaceholderRoute() {
  const logout = useLogout();
  return (
    <AppLayout title="Администратор">
      <RoleToggle current="admin" />
      <Text>Раздел администратора в разработке.</Text>
      <Button variant="default" onClick={() => void logout()}>
        Выйти
      </Button>
    </AppLayout>
  );
}

export default AdminPlaceholderRoute;
