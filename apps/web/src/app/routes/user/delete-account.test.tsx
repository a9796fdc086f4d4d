import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { codeSent, codeVerified, userProfile } from '../../../test/user-fixtures';
import { DeleteAccountRoute } from './delete-account';

describe('/delete-account', () => {
  it('sends a code, deletes the profile with the verified token, confirms and returns to /login after 2 s', async () => {
    signIn();
    const server = mockApi({
      'GET /api/users/me/': userProfile,
      'POST /api/auth/codes/': codeSent('del-1'),
      'PATCH /api/auth/codes/verify/': codeVerified,
      'DELETE /api/users/me/': [204, undefined],
    });
    const { user } = renderRoute(<DeleteAccountRoute />, { path: '/delete-account' });
    await user.click(await screen.findByRole('button', { name: 'Отправить код' }));
    expect(server.callsTo('POST /api/auth/codes/')[0]?.body).toEqual({
      phone: '+79001234567',
      mode: 'delete_account',
    });

    const code = await screen.findByLabelText(/Код из СМС/);
    await user.type(code, '12345');
    await user.click(screen.getByRole('button', { name: 'Удалить профиль' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Код должен содержать 6 цифр.');
    expect(server.callsTo('DELETE /api/users/me/')).toHaveLength(0);

    await user.type(code, '6');
    // As the real server after the deletion: the profile is gone. The screen must not ask for it again
    // (a 401 would take the user to /login before he has read the confirmation).
    server.on({ 'GET /api/users/me/': [401, { detail: 'Token is invalid or expired.' }] });
    const profileReads = server.callsTo('GET /api/users/me/').length;
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByRole('button', { name: 'Удалить профиль' }));
    expect(await screen.findByText('Профиль успешно удалён.')).toBeInTheDocument();
    expect(server.callsTo('PATCH /api/auth/codes/verify/')[0]?.body).toEqual({
      phone: '+79001234567',
      code: '123456',
      verification_token: 'del-1',
    });
    expect(server.callsTo('DELETE /api/users/me/')[0]?.body).toEqual({ verification_token: 'del-1' });
    expect(window.localStorage.getItem('access_token')).toBeNull();
    expect(window.localStorage.getItem('refresh_token')).toBeNull();
    expect(window.localStorage.getItem('phone')).toBeNull();

    await act(async () => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.queryByText('Screen: /login')).not.toBeInTheDocument();
    expect(screen.getByText('Профиль успешно удалён.')).toBeInTheDocument();
    expect(server.callsTo('GET /api/users/me/')).toHaveLength(profileReads);
    await act(async () => {
      vi.advanceTimersByTime(1100);
    });
    expect(await screen.findByText('Screen: /login')).toBeInTheDocument();
  });

  it('shows the server text of a refused deletion, else "Ошибка удаления аккаунта", and keeps the session', async () => {
    signIn();
    const server = mockApi({
      'GET /api/users/me/': userProfile,
      'POST /api/auth/codes/': codeSent('del-1'),
      'PATCH /api/auth/codes/verify/': codeVerified,
      'DELETE /api/users/me/': [
        400,
        { detail: 'Invalid verification token.', code: 'verification_token_invalid' },
      ],
    });
    const { user } = renderRoute(<DeleteAccountRoute />, { path: '/delete-account' });
    await user.click(await screen.findByRole('button', { name: 'Отправить код' }));
    await user.type(await screen.findByLabelText(/Код из СМС/), '123456');
    await user.click(screen.getByRole('button', { name: 'Удалить профиль' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Код подтверждения недействителен. Запросите новый код.',
    );

    server.on({ 'DELETE /api/users/me/': [500, {}] });
    await user.click(screen.getByRole('button', { name: 'Удалить профиль' }));
    expect(await screen.findByText('Ошибка удаления аккаунта')).toBeInTheDocument();
    expect(screen.queryByText('Профиль успешно удалён.')).not.toBeInTheDocument();
    expect(window.localStorage.getItem('access_token')).toBe('access-1');
  });

  it('tells an administrator who owns barriers, before any code is sent, that the profile cannot be deleted', async () => {
    signIn('+79001112233');
    const server = mockApi({
      'GET /api/users/me/': { ...userProfile, phone: '+79001112233' },
      'POST /api/users/check_admin/': { is_admin: true },
      'GET /api/admin/barriers/my/': { barriers: [], total_count: 2 },
      'POST /api/auth/codes/': codeSent('del-1'),
    });
    const { user } = renderRoute(<DeleteAccountRoute />, { path: '/delete-account' });
    const warning = await screen.findByTestId('owned-barriers-warning');
    expect(warning).toHaveTextContent('Профиль нельзя удалить');
    expect(warning).toHaveTextContent('Вы администратор шлагбаумов: 2.');
    expect(warning).toHaveTextContent('Сначала удалите свои шлагбаумы, затем аккаунт.');
    expect(screen.queryByRole('button', { name: 'Отправить код' })).not.toBeInTheDocument();
    expect(server.callsTo('POST /api/auth/codes/')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'К моим шлагбаумам' }));
    expect(await screen.findByText('Screen: /admin-barriers')).toBeInTheDocument();
  });

  it('offers the code to an administrator without barriers', async () => {
    signIn('+79001112233');
    mockApi({
      'GET /api/users/me/': { ...userProfile, phone: '+79001112233' },
      'POST /api/users/check_admin/': { is_admin: true },
      'GET /api/admin/barriers/my/': { barriers: [], total_count: 0 },
    });
    renderRoute(<DeleteAccountRoute />, { path: '/delete-account' });
    expect(await screen.findByRole('button', { name: 'Отправить код' })).toBeInTheDocument();
    expect(screen.queryByTestId('owned-barriers-warning')).not.toBeInTheDocument();
  });
});
