import { MESSAGES } from '@propusk/contracts/messages';
import { paths } from '../../paths';
import { LoginCodeScreen } from './login-code-screen';

/** /verifyuser (spec.md section 4, "Login" steps 3 and 4). */
export function VerifyUserRoute() {
  return (
    <LoginCodeScreen
      title="Подтверждение входа"
      home={paths.user}
      loginFailed={MESSAGES.loginFailed}
      network={MESSAGES.verificationNetwork}
    />
  );
}

export default VerifyUserRoute;
