import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { userProfile as profile } from '../../../test/user-fixtures';
import { ProfileRoute } from './profile';

describe('/user', () => {
  it('shows the profile with its role and the bottom navigation, without the toggle for a user', async () => {
    signIn();
    mockApi({ 'GET /api/users/me/': profile, 'POST /api/users/check_admin/': { is_admin: false } });
    renderRoute(<ProfileRoute />, { path: '/user' });
    expect(await screen.findByLabelText('ФИО')).toHaveValue('Иван Петров');
    expect(screen.getByLabelText('Телефон')).toHaveValue('+7 (900) 123-45-67');
    expect(screen.getByLabelText('Роль')).toHaveValue('Пользователь');
    const navigation = screen.getByRole('navigation', { name: 'Основная навигация' });
    for (const label of ['Шлагбаумы', 'Заявки', 'Профиль']) {
      expect(navigation).toHaveTextContent(label);
    }
    expect(screen.queryByRole('radio', { name: 'Администратор' })).not.toBeInTheDocument();
  });

  it('shows the User/Administrator toggle to an administrator, which goes to /admin', async () => {
    signIn();
    mockApi({
      'GET /api/users/me/': { ...profile, role: 'admin' },
      'POST /api/users/check_admin/': { is_admin: true },
    });
    const { user } = renderRoute(<ProfileRoute />, { path: '/user' });
    await user.click(await screen.findByRole('radio', { name: 'Администратор' }));
    expect(await screen.findByText('Screen: /admin')).toBeInTheDocument();
  });

  it('saves the name and confirms it', async () => {
    signIn();
    const server = mockApi({
      'GET /api/users/me/': profile,
      'POST /api/users/check_admin/': { is_admin: false },
      'PATCH /api/users/me/': ({ body }) => ({ ...profile, ...(body as object) }),
    });
    const { user } = renderRoute(<ProfileRoute />, { path: '/user' });
    const name = await screen.findByLabelText('ФИО');
    await user.clear(name);
    await user.type(name, 'Пётр Иванов');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Имя сохранено')).toBeInTheDocument();
    expect(server.callsTo('PATCH /api/users/me/')[0]?.body).toEqual({ full_name: 'Пётр Иванов' });
  });

  it('does not save an empty name and says what is missing', async () => {
    signIn();
    const server = mockApi({
      'GET /api/users/me/': profile,
      'POST /api/users/check_admin/': { is_admin: false },
    });
    const { user } = renderRoute(<ProfileRoute />, { path: '/user' });
    const name = await screen.findByLabelText('ФИО');
    await user.clear(name);
    await user.type(name, '   ');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(screen.getByText('Введите имя.')).toBeInTheDocument();
    expect(server.callsTo('PATCH /api/users/me/')).toHaveLength(0);
    await user.type(name, 'Пётр');
    expect(screen.queryByText('Введите имя.')).not.toBeInTheDocument();
  });

  it('refreshes the token when the profile load gets a 401 and reloads the profile', async () => {
    window.localStorage.setItem('access_token', 'expired');
    window.localStorage.setItem('refresh_token', 'refresh-1');
    mockApi({
      'GET /api/users/me/': ({ headers }) =>
        headers.authorization === 'Bearer new-access' ? profile : [401, { detail: 'Token expired.' }],
      'POST /api/auth/token/refresh/': { access: 'new-access' },
      'POST /api/users/check_admin/': { is_admin: false },
    });
    renderRoute(<ProfileRoute />, { path: '/user' });
    expect(await screen.findByLabelText('ФИО')).toHaveValue('Иван Петров');
    expect(window.localStorage.getItem('access_token')).toBe('new-access');
  });

  it('goes to /login when the refresh fails too', async () => {
    window.localStorage.setItem('access_token', 'expired');
    window.localStorage.setItem('refresh_token', 'revoked');
    mockApi({
      'GET /api/users/me/': [401, { detail: 'Token expired.' }],
      'POST /api/auth/token/refresh/': [401, { detail: 'Refresh token is invalid or expired.' }],
    });
    renderRoute(<ProfileRoute />, { path: '/user' });
    expect(await screen.findByText('Screen: /login')).toBeInTheDocument();
  });

  it('logs out through the server, clears the stored session and goes to /login', async () => {
    signIn();
    const server = mockApi({
      'GET /api/users/me/': profile,
      'POST /api/users/check_admin/': { is_admin: false },
      'POST /api/auth/logout/': [204, undefined],
    });
    const { user } = renderRoute(<ProfileRoute />, { path: '/user' });
    await user.click(await screen.findByRole('button', { name: 'Выйти' }));
    expect(await screen.findByText('Screen: /login')).toBeInTheDocument();
    expect(server.callsTo('POST /api/auth/logout/')[0]?.body).toEqual({ refresh: 'refresh-1' });
    await waitFor(() => expect(window.localStorage.getItem('access_token')).toBeNull());
    expect(window.localStorage.getItem('refresh_token')).toBeNull();
    expect(window.localStorage.getItem('phone')).toBeNull();
  });
});
