import { paths } from '../../../lib/paths';
import { ChangePhoneScreen } from '../shared/change-phone-flow';

/** /change-phone-admin: the administrator's four-step phone change, back to /admin. */
export function ChangePhoneAdminRoute() {
  return <ChangePhoneScreen profilePath={paths.admin} />;
}

export default ChangePhoneAdminRoute;
