import { AUTH_MESSAGES } from '@propusk/contracts/texts/auth';
import { paths } from '../../../lib/paths';
import { LoginCodeScreen } from './login-code-screen';

/** /smsadmin: the SMS code of an administrator's login, after the password (spec.md section 4). */
export function SmsAdminRoute() {
  return (
    <LoginCodeScreen
      title="Код из СМС"
      home={paths.admin}
      loginFailed={AUTH_MESSAGES.adminLoginFailed}
      network={AUTH_MESSAGES.serverUnreachable}
    />
  );
}

export default SmsAdminRoute;
