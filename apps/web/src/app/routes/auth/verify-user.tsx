import { AUTH_MESSAGES } from '@propusk/contracts/texts/auth';
import { paths } from '../../../lib/paths';
import { LoginCodeScreen } from './login-code-screen';

/** /verifyuser (spec.md section 4, "Login" steps 3 and 4). */
export function VerifyUserRoute() {
  return (
    <LoginCodeScreen
      title="Подтверждение входа"
      home={paths.user}
      loginFailed={AUTH_MESSAGES.loginFailed}
      network={AUTH_MESSAGES.verificationNetwork}
    />
  );
}

export default VerifyUserRoute;
