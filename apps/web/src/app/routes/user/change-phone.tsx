import { paths } from '../../../lib/paths';
import { ChangePhoneScreen } from '../shared/change-phone-flow';

/** /change-phone: the user's four-step phone change, back to /user. */
export function ChangePhoneRoute() {
  return <ChangePhoneScreen profilePath={paths.user} />;
}

export default ChangePhoneRoute;
