import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminProfile } from '../../../test/admin-fixtures';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { ChangePasswordRoute } from './change-password';

describe('/change-password', () => {
  it('goes code → verification → passwords, checks them, changes and goes back to the profile, still signed in', async () => {
    signIn('+79001112233');
    const server = mockApi({
      'GET /api/users/me/': adminProfile,
      'POST /api/auth/codes/': [
        201,
        { verification_token: 'token-1', detail: 'Code sent.', retry_after: 60 },
      ],
      'PATCH /api/auth/codes/verify/': { message: 'Code verified successfully.' },
      'PATCH /api/users/me/password/': [
        400,
        {
          detail: 'Old password is incorrect.',
          code: 'wrong_old_password',
          old_password: ['Old password is incorrect.'],
        },
      ],
    });
    const { user } = renderRoute(<ChangePasswordRoute />, { path: '/change-password' });
    await user.click(await screen.findByRole('button', { name: 'Отправить код' }));
    expect(server.callsTo('POST /api/auth/codes/')[0]?.body).toEqual({
      phone: '+79001112233',
      mode: 'change_password',
    });
    await user.type(await screen.findByLabelText(/Код из СМС/), '123456');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));

    const submit = await screen.findByRole('button', { name: 'Сменить пароль' });
    await user.type(screen.getByLabelText(/Новый пароль/), '12345');
    await user.type(screen.getByLabelText(/Повторите новый пароль/), '54321');
    await user.click(submit);
    expect(screen.getByText('Пароль не должен быть пустым.')).toBeInTheDocument();
    expect(screen.getByText('Пароль должен содержать минимум 12 символов.')).toBeInTheDocument();
    expect(screen.getByText('Новые пароли не совпадают.')).toBeInTheDocument();
    expect(server.callsTo('PATCH /api/users/me/password/')).toHaveLength(0);

    await user.type(screen.getByLabelText(/Текущий пароль/), 'old-secret');
    await user.clear(screen.getByLabelText(/Новый пароль/));
    await user.type(screen.getByLabelText(/Новый пароль/), 'new-secret-maple-9');
    await user.clear(screen.getByLabelText(/Повторите новый пароль/));
    await user.type(screen.getByLabelText(/Повторите новый пароль/), 'new-secret-maple-9');
    await user.click(submit);
    expect(await screen.findByText('Старый пароль неверен.')).toBeInTheDocument();

    server.on({ 'PATCH /api/users/me/password/': { message: 'Password changed successfully.' } });
    await user.click(submit);
    expect(await screen.findByText('Пароль успешно изменён')).toBeInTheDocument();
    expect(server.callsTo('PATCH /api/users/me/password/').at(-1)?.body).toEqual({
      old_password: 'old-secret',
      new_password: 'new-secret-maple-9',
      verification_token: 'token-1',
    });
    // The server kept this session (issue 40 item 9): back to the profile, still signed in.
    expect(
      screen.getByText('На других устройствах вход завершён: там войдите с новым паролем.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Вернуться в профиль' }));
    expect(await screen.findByText('Screen: /admin')).toBeInTheDocument();
    expect(window.localStorage.getItem('access_token')).not.toBeNull();
  });

  it('shows the fallback when the change fails without a text', async () => {
    signIn('+79001112233');
    mockApi({
      'GET /api/users/me/': adminProfile,
      'POST /api/auth/codes/': [
        201,
        { verification_token: 'token-1', detail: 'Code sent.', retry_after: 60 },
      ],
      'PATCH /api/auth/codes/verify/': { message: 'Code verified successfully.' },
      'PATCH /api/users/me/password/': [500, {}],
    });
    const { user } = renderRoute(<ChangePasswordRoute />, { path: '/change-password' });
    await user.click(await screen.findByRole('button', { name: 'Отправить код' }));
    await user.type(await screen.findByLabelText(/Код из СМС/), '123456');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    await user.type(await screen.findByLabelText(/Текущий пароль/), 'old-secret');
    await user.type(screen.getByLabelText(/Новый пароль/), 'new-secret-maple-9');
    await user.type(screen.getByLabelText(/Повторите новый пароль/), 'new-secret-maple-9');
    await user.click(screen.getByRole('button', { name: 'Сменить пароль' }));
    expect(await screen.findByText('Ошибка при смене пароля')).toBeInTheDocument();
  });

  it('tells an administrator whose password no longer meets the rule why he is here (issue 29 part 9)', async () => {
    signIn('+79001112233');
    mockApi({ 'GET /api/users/me/': { ...adminProfile, password_change_required: true } });
    renderRoute(<ChangePasswordRoute />, { path: '/change-password' });
    expect(await screen.findByTestId('password-change-required')).toHaveTextContent(
      'Ваш пароль слишком короткий или легко угадывается',
    );
  });
});
