import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { barrier, deviceHealth, limits } from '../../../test/admin-fixtures';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { AdminBarrierPageRoute } from './admin-barrier-page';

const state = { barrier_id: 5 };
const member = {
  id: 9,
  full_name: 'Ольга Операторова',
  phone: '+79001112233',
  role: 'operator',
  created_at: '2026-01-10T10:00:00Z',
};

function barrierApi(role: string, extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /api/admin/barriers/5/': { ...barrier, my_role: role },
    'GET /api/admin/barriers/5/limits/': limits,
    'GET /api/admin/barriers/5/device-health/': deviceHealth,
    'GET /api/admin/barriers/5/staff/': { staff: [member] },
    ...extra,
  });
}

describe('/admin-barrier-page by role', () => {
  it('an operator sees users and history, no settings, parameters, administrators or deletion', async () => {
    signIn();
    const api = barrierApi('operator');
    renderRoute(<AdminBarrierPageRoute />, { path: '/admin-barrier-page', state });
    expect(await screen.findByTestId('my-role')).toHaveTextContent('Ваша роль: Оператор');
    expect(screen.getByRole('button', { name: 'Пользователи' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'История изменений' })).toBeInTheDocument();
    for (const name of [
      'Настройки устройства',
      'Удалить шлагбаум',
      'Проверить устройство',
      'Сохранить лимиты',
      'Параметры',
      'Лимиты',
      'Экстренное открытие',
    ]) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    expect(screen.queryByText('Администраторы')).not.toBeInTheDocument();
    expect(api.calls.some((call) => call.path.endsWith('/staff/'))).toBe(false);
  });

  it('a dispatcher sees only the device: its health and its log', async () => {
    signIn();
    barrierApi('dispatcher');
    renderRoute(<AdminBarrierPageRoute />, { path: '/admin-barrier-page', state });
    expect(await screen.findByTestId('my-role')).toHaveTextContent('Ваша роль: Диспетчер');
    expect(await screen.findByTestId('device-health')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Журнал устройства' })).toBeInTheDocument();
    for (const name of ['Пользователи', 'История изменений', 'Настройки устройства', 'Удалить шлагбаум']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
  });

  it('the owner adds an administrator by phone with a role, changes a role and removes one after confirming', async () => {
    signIn();
    const api = barrierApi('owner', {
      'POST /api/admin/barriers/5/staff/': [
        201,
        { ...member, id: 10, full_name: 'Дмитрий', role: 'dispatcher' },
      ],
      'PATCH /api/admin/barriers/5/staff/9/': { ...member, role: 'manager' },
      'DELETE /api/admin/barriers/5/staff/9/': [204, undefined],
    });
    const { user } = renderRoute(<AdminBarrierPageRoute />, { path: '/admin-barrier-page', state });
    await user.click(await screen.findByRole('button', { name: 'Администраторы' }));
    const section = await screen.findByTestId('staff-section');
    expect(screen.queryByTestId('my-role')).not.toBeInTheDocument();
    const row = await within(section).findByTestId('staff-member');
    expect(row).toHaveTextContent('Ольга Операторова');
    expect(within(row).getByRole('textbox', { name: 'Роль' })).toHaveValue('Оператор');

    await user.type(within(section).getByLabelText('Номер телефона администратора'), '89005556677');
    const roles = within(section).getAllByRole('textbox', { name: 'Роль' });
    await user.click(roles[roles.length - 1] as HTMLElement);
    await user.click(await screen.findByRole('option', { name: 'Диспетчер' }));
    await user.click(within(section).getByRole('button', { name: 'Добавить' }));
    expect(await within(section).findByText('Администратор Дмитрий добавлен.')).toBeInTheDocument();
    expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({
      phone: '+79005556677',
      role: 'dispatcher',
    });

    await user.click(within(row).getByRole('textbox', { name: 'Роль' }));
    await user.click(await screen.findByRole('option', { name: 'Управляющий' }));
    expect(await within(section).findByText('Роль изменена.')).toBeInTheDocument();
    expect(api.calls.find((call) => call.method === 'PATCH')?.body).toEqual({ role: 'manager' });

    await user.click(within(row).getByRole('button', { name: 'Удалить' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Удалить администратора Ольга Операторова?');
    await user.click(within(dialog).getByRole('button', { name: 'Да, удалить' }));
    expect(await within(section).findByText('Администратор удалён.')).toBeInTheDocument();
    expect(api.calls.some((call) => call.method === 'DELETE' && call.path.endsWith('/staff/9/'))).toBe(true);
  });

  it('says what to do when the phone is no administrator the owner knows (no account oracle)', async () => {
    signIn();
    barrierApi('owner', {
      'POST /api/admin/barriers/5/staff/': [
        404,
        { detail: 'No administrator account has this phone.', code: 'staff_not_admin' },
      ],
    });
    const { user } = renderRoute(<AdminBarrierPageRoute />, { path: '/admin-barrier-page', state });
    await user.click(await screen.findByRole('button', { name: 'Администраторы' }));
    const section = await screen.findByTestId('staff-section');
    await user.type(within(section).getByLabelText('Номер телефона администратора'), '89005556677');
    await user.click(within(section).getByRole('button', { name: 'Добавить' }));
    expect(
      await within(section).findByText(/Среди ваших пользователей нет администратора с этим номером/),
    ).toBeInTheDocument();
  });
});
