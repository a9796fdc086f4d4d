import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, networkFailure } from '../../../test/mock-api';
import { renderRoute } from '../../../test/render';
import { codeSent, codeVerified } from '../../../test/user-fixtures';
import { RestoreSmsRoute } from './restore-sms';

const phone = '+79001112233';

describe('/restoresms', { timeout: 20_000 }, () => {
  it('sends a reset code without a session, checks the code and opens /restorepassword with the token', async () => {
    const server = mockApi({
      'POST /api/auth/codes/': codeSent('reset-1'),
      'PATCH /api/auth/codes/verify/': codeVerified,
    });
    const { user } = renderRoute(<RestoreSmsRoute />, { path: '/restoresms', state: { phone } });
    expect(screen.getByRole('heading', { name: 'Восстановление пароля' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Отправить код' }));
    const codeRequest = server.callsTo('POST /api/auth/codes/')[0];
    expect(codeRequest?.body).toEqual({ phone, mode: 'reset_password' });
    expect(codeRequest?.headers.authorization).toBeUndefined();
    expect(window.localStorage.getItem('verification_token')).toBe('reset-1');

    const code = await screen.findByLabelText(/Код из СМС/);
    await user.type(code, '12a3');
    expect(code).toHaveValue('123');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Код должен содержать 6 цифр.');
    expect(server.callsTo('PATCH /api/auth/codes/verify/')).toHaveLength(0);

    await user.type(code, '456');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(await screen.findByText('Screen: /restorepassword')).toBeInTheDocument();
    expect(server.callsTo('PATCH /api/auth/codes/verify/')[0]?.body).toEqual({
      phone,
      code: '123456',
      verification_token: 'reset-1',
    });
    expect(JSON.parse(screen.getByTestId('navigation-state').textContent ?? 'null')).toEqual({
      phone,
      verification_token: 'reset-1',
    });
  });

  it('translates a wrong code and stays on the screen', async () => {
    mockApi({
      'POST /api/auth/codes/': codeSent('reset-1'),
      'PATCH /api/auth/codes/verify/': [400, { detail: 'Invalid verification code.', code: 'invalid_code' }],
    });
    const { user } = renderRoute(<RestoreSmsRoute />, { path: '/restoresms', state: { phone } });
    await user.click(screen.getByRole('button', { name: 'Отправить код' }));
    await user.type(await screen.findByLabelText(/Код из СМС/), '000000');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Неверный код подтверждения.');
    expect(screen.queryByText(/Screen:/)).not.toBeInTheDocument();
  });

  it('shows a refused code request translated with its retry hint, and the fallback without a text', async () => {
    const server = mockApi({
      'POST /api/auth/codes/': [
        429,
        { detail: 'Verification code was already sent. Try again later.', retry_after: 30 },
      ],
    });
    const { user } = renderRoute(<RestoreSmsRoute />, { path: '/restoresms', state: { phone } });
    await user.click(screen.getByRole('button', { name: 'Отправить код' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Код уже был отправлен. Попробуйте позже. Повторите через 30 секунд.',
    );
    expect(screen.queryByLabelText(/Код из СМС/)).not.toBeInTheDocument();

    server.on({ 'POST /api/auth/codes/': [500, {}] });
    await user.click(screen.getByRole('button', { name: 'Отправить код' }));
    expect(await screen.findByText('Ошибка отправки кода')).toBeInTheDocument();

    server.on({ 'POST /api/auth/codes/': networkFailure });
    await user.click(screen.getByRole('button', { name: 'Отправить код' }));
    expect(await screen.findByText('Ошибка сети')).toBeInTheDocument();
  });

  it('goes back to /verifyadmin with the phone', async () => {
    mockApi();
    const { user } = renderRoute(<RestoreSmsRoute />, { path: '/restoresms', state: { phone } });
    await user.click(screen.getByRole('button', { name: /Назад/ }));
    expect(await screen.findByText('Screen: /verifyadmin')).toBeInTheDocument();
    expect(screen.getByTestId('navigation-state')).toHaveTextContent(`{"phone":"${phone}"}`);
  });
});
