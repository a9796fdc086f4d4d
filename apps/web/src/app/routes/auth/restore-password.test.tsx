import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, networkFailure } from '../../../test/mock-api';
import { renderRoute } from '../../../test/render';
import { RestorePasswordRoute } from './restore-password';

const phone = '+79001112233';
const state = { phone, verification_token: 'reset-1' };

describe('/restorepassword', () => {
  it('needs at least 12 characters before it sends anything', async () => {
    const server = mockApi();
    const { user } = renderRoute(<RestorePasswordRoute />, { path: '/restorepassword', state });
    const save = screen.getByRole('button', { name: 'Сохранить пароль' });
    expect(save).toBeDisabled();
    await user.type(screen.getByLabelText(/Новый пароль/), 'клён-орбита');
    expect(screen.getByText('Пароль должен содержать минимум 12 символов.')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.type(screen.getByLabelText(/Новый пароль/), '7');
    expect(screen.queryByText('Пароль должен содержать минимум 12 символов.')).not.toBeInTheDocument();
    expect(save).toBeEnabled();
    expect(server.calls).toHaveLength(0);
  });

  it('resets the password without a session and goes to /verifyadmin with the phone', async () => {
    window.localStorage.setItem('verification_token', 'reset-1');
    const server = mockApi({
      'PATCH /api/users/me/password/reset/': { detail: 'Password reset successfully.' },
    });
    const { user } = renderRoute(<RestorePasswordRoute />, { path: '/restorepassword', state });
    await user.type(screen.getByLabelText(/Новый пароль/), 'new-secret-maple-9');
    await user.click(screen.getByRole('button', { name: 'Сохранить пароль' }));
    expect(await screen.findByText('Screen: /verifyadmin')).toBeInTheDocument();
    const reset = server.callsTo('PATCH /api/users/me/password/reset/')[0];
    expect(reset?.body).toEqual({ phone, new_password: 'new-secret-maple-9', verification_token: 'reset-1' });
    expect(reset?.headers.authorization).toBeUndefined();
    expect(JSON.parse(screen.getByTestId('navigation-state').textContent ?? 'null')).toMatchObject({ phone });
    expect(window.localStorage.getItem('verification_token')).toBeNull();
  });

  it('shows the server text, else "Ошибка сброса пароля"', async () => {
    const server = mockApi({
      'PATCH /api/users/me/password/reset/': [
        400,
        { detail: 'Invalid verification token.', code: 'verification_token_invalid' },
      ],
    });
    const { user } = renderRoute(<RestorePasswordRoute />, { path: '/restorepassword', state });
    await user.type(screen.getByLabelText(/Новый пароль/), 'new-secret-maple-9');
    await user.click(screen.getByRole('button', { name: 'Сохранить пароль' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Код подтверждения недействителен. Запросите новый код.',
    );

    server.on({ 'PATCH /api/users/me/password/reset/': [500, {}] });
    await user.click(screen.getByRole('button', { name: 'Сохранить пароль' }));
    expect(await screen.findByText('Ошибка сброса пароля')).toBeInTheDocument();

    server.on({ 'PATCH /api/users/me/password/reset/': networkFailure });
    await user.click(screen.getByRole('button', { name: 'Сохранить пароль' }));
    expect(await screen.findByText('Ошибка сети')).toBeInTheDocument();
    expect(screen.queryByText(/Screen:/)).not.toBeInTheDocument();
  });

  it('says "Ошибка сброса пароля" without calling the server when no code was verified', async () => {
    const server = mockApi();
    const { user } = renderRoute(<RestorePasswordRoute />, { path: '/restorepassword', state: { phone } });
    await user.type(screen.getByLabelText(/Новый пароль/), 'new-secret-maple-9');
    await user.click(screen.getByRole('button', { name: 'Сохранить пароль' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ошибка сброса пароля');
    expect(server.calls).toHaveLength(0);
  });
});
