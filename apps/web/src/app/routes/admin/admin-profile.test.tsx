import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminProfile } from '../../../test/admin-fixtures';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { AdminProfileRoute } from './admin-profile';

describe('/admin', () => {
  it('shows the profile, the toggle, the links and the bottom navigation', async () => {
    signIn();
    mockApi({
      'GET /api/users/me/': adminProfile,
      'GET /api/admin/balance/': { balance: null, currency: null },
    });
    const { user } = renderRoute(<AdminProfileRoute />, { path: '/admin' });
    expect(await screen.findByLabelText('ФИО')).toHaveValue('Анна Админова');
    expect(screen.getByLabelText('Телефон')).toHaveValue('+7 (900) 111-22-33');
    const navigation = screen.getByRole('navigation', { name: 'Основная навигация' });
    for (const label of ['Шлагбаумы', 'Заявки', 'Профиль']) expect(navigation).toHaveTextContent(label);
    expect(screen.getByRole('radio', { name: 'Администратор' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Сменить пароль' }));
    expect(await screen.findByText('Screen: /change-password')).toBeInTheDocument();
  });

  it('sends an administrator whose password must be replaced to the password change (issue 29 part 9)', async () => {
    signIn();
    mockApi({
      'GET /api/users/me/': { ...adminProfile, password_change_required: true },
      'GET /api/admin/balance/': { balance: null, currency: null },
    });
    renderRoute(<AdminProfileRoute />, { path: '/admin' });
    expect(await screen.findByText('Screen: /change-password')).toBeInTheDocument();
  });

  it('goes back to /user with the toggle', async () => {
    signIn();
    mockApi({
      'GET /api/users/me/': adminProfile,
      'GET /api/admin/balance/': { balance: null, currency: null },
    });
    const { user } = renderRoute(<AdminProfileRoute />, { path: '/admin' });
    await user.click(await screen.findByRole('radio', { name: 'Пользователь' }));
    expect(await screen.findByText('Screen: /user')).toBeInTheDocument();
  });

  it('shows the real balance, "неизвестен" when the gateway has none, and checks again on request', async () => {
    signIn();
    let balance: number | null = null;
    const server = mockApi({
      'GET /api/users/me/': adminProfile,
      'GET /api/admin/balance/': () => ({ balance, currency: balance === null ? null : 'RUB' }),
    });
    const { user } = renderRoute(<AdminProfileRoute />, { path: '/admin' });
    expect(await screen.findByText('неизвестен')).toBeInTheDocument();
    balance = 543.5;
    await user.click(screen.getByRole('button', { name: 'Проверить баланс' }));
    expect(await screen.findByText('543,5 ₽')).toBeInTheDocument();
    expect(server.callsTo('GET /api/admin/balance/')).toHaveLength(2);
  });

  it('saves the name and the phone privacy, one field at a time', async () => {
    signIn();
    const server = mockApi({
      'GET /api/users/me/': adminProfile,
      'GET /api/admin/balance/': { balance: null, currency: null },
      'PATCH /api/users/me/': ({ body }) => ({ ...adminProfile, ...(body as object) }),
    });
    const { user } = renderRoute(<AdminProfileRoute />, { path: '/admin' });
    const name = await screen.findByLabelText('ФИО');
    await user.clear(name);
    await user.type(name, 'Пётр');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Имя сохранено')).toBeInTheDocument();
    await user.click(screen.getByRole('textbox', { name: 'Видимость номера' }));
    await user.click(await screen.findByRole('option', { name: 'Скрыт от всех' }));
    expect(await screen.findByText('Видимость номера сохранена')).toBeInTheDocument();
    expect(server.callsTo('PATCH /api/users/me/').map((call) => call.body)).toEqual([
      { full_name: 'Пётр' },
      { phone_privacy: 'private' },
    ]);
  });
});
