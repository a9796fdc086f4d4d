import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { renderRoute } from '../../../test/render';
import { RestoreSmsRoute } from './restore-sms';

const phone = '+79001112233';

describe('/restoresms', () => {
  it('tells an administrator to ask the server’s operator for a new password, and sends no SMS (issue 32 item 6)', async () => {
    const server = mockApi();
    const { user } = renderRoute(<RestoreSmsRoute />, { path: '/restoresms', state: { phone } });
    expect(screen.getByRole('heading', { name: 'Восстановление пароля' })).toBeInTheDocument();
    expect(screen.getByTestId('admin-reset-explained')).toHaveTextContent(
      'Пароль администратора не восстанавливается по СМС. Обратитесь к оператору сервера',
    );
    // Nothing promises a code: no send button, no code field.
    expect(screen.queryByRole('button', { name: 'Отправить код' })).toBeNull();
    expect(screen.queryByLabelText(/Код из СМС/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Вернуться ко входу' }));
    expect(await screen.findByText('Screen: /login')).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);
  });
});
