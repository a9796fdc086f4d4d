import { Button, Stack, Text } from '@mantine/core';
import { ADMIN_PASSWORD_RESET_TEXTS } from '@propusk/contracts/texts/auth';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { useSignInState } from '../../../hooks/use-sign-in-state';
import { paths } from '../../paths';

/**
 * /restoresms, reached by «Забыли пароль?» on the administrator's password step (spec.md section 4). An
 * administrator's password is never reset by an SMS code (docs/decisions/0012 B: whoever holds the number would
 * then hold both factors), so this screen says what to do instead and sends no SMS (issue 32 item 6).
 */
export function RestoreSmsRoute() {
  const navigate = useNavigate();
  const { phone } = useSignInState();
  return (
    <AppLayout
      title="Восстановление пароля"
      back={{ to: paths.verifyAdmin, label: 'Назад', state: { phone } }}
    >
      <Stack gap="md">
        <Text data-testid="admin-reset-explained">{ADMIN_PASSWORD_RESET_TEXTS.explanation}</Text>
        <Text>{ADMIN_PASSWORD_RESET_TEXTS.why}</Text>
        <Button onClick={() => navigate(paths.login, { replace: true })} fullWidth>
          {ADMIN_PASSWORD_RESET_TEXTS.backToLogin}
        </Button>
      </Stack>
    </AppLayout>
  );
}

export default RestoreSmsRoute;
