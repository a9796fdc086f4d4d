import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminUser, barrierUser, page } from '../../../test/admin-fixtures';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { wholeText } from '../../../test/text-matchers';
import { BarrierUsersRoute } from './barrier-users';

const state = { barrier_id: 5 };

describe('/barrier-users', () => {
  it('lists the users of the barrier, searches them and opens a profile with both ids', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/users/': ({ query }) =>
        query.get('search') === 'нет'
          ? page('users', [])
          : page('users', [
              barrierUser,
              { ...barrierUser, id: 22, full_name: 'Иван Блокированный', is_active: false },
            ]),
    });
    const { user } = renderRoute(<BarrierUsersRoute />, { path: '/barrier-users', state });
    expect(await screen.findByText('Пётр Жильцов')).toBeInTheDocument();
    expect(screen.getAllByText('Номеров: 2')).toHaveLength(2);
    // Only the blocked one says so.
    expect(screen.getAllByTestId('barrier-user-blocked')).toHaveLength(1);
    expect(screen.getByText('Заблокирован')).toBeInTheDocument();
    expect(server.callsTo('GET /api/admin/barriers/5/users/')[0]?.query.get('page_size')).toBe('10');
    await user.type(screen.getByLabelText('Поиск по имени или телефону'), 'нет');
    expect(await screen.findByText('Нет пользователей')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Поиск по имени или телефону'));
    await user.click((await screen.findAllByRole('button', { name: 'Открыть профиль' }))[0] as HTMLElement);
    expect(await screen.findByText('Screen: /user-profile')).toBeInTheDocument();
    expect(screen.getByTestId('navigation-state')).toHaveTextContent('{"user_id":21,"barrier_id":5}');
  });

  it('removes a user after a confirmation, and says so when it fails', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/users/': page('users', [barrierUser]),
      'DELETE /api/admin/barriers/5/users/21/': [500, {}],
    });
    const { user } = renderRoute(<BarrierUsersRoute />, { path: '/barrier-users', state });
    await user.click(await screen.findByRole('button', { name: 'Удалить из шлагбаума' }));
    await user.click(await screen.findByRole('button', { name: 'Да, удалить' }));
    expect(await screen.findByText('Ошибка удаления пользователя.')).toBeInTheDocument();
    server.on({
      'DELETE /api/admin/barriers/5/users/21/': [204, undefined],
      'GET /api/admin/barriers/5/users/': page('users', []),
    });
    await user.click(await screen.findByRole('button', { name: 'Да, удалить' }));
    expect(await screen.findByText('Нет пользователей')).toBeInTheDocument();
    expect(server.callsTo('DELETE /api/admin/barriers/5/users/21/')).toHaveLength(2);
  });

  it('finds a user by phone and invites him; the button is disabled while the phone is empty', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/users/': page('users', []),
      'POST /api/admin/users/search/': ({ body }) =>
        (body as { phone: string }).phone === '+79002223344'
          ? adminUser
          : [404, { detail: 'User not found.' }],
      'POST /api/admin/access_requests/': [201, {}],
    });
    const { user } = renderRoute(<BarrierUsersRoute />, { path: '/barrier-users', state });
    const find = await screen.findByRole('button', { name: 'Найти' });
    expect(find).toBeDisabled();
    const phone = screen.getByLabelText('Номер телефона');
    await user.type(phone, '9009999999');
    await user.click(find);
    expect(await screen.findByText('Пользователь не найден')).toBeInTheDocument();
    await user.clear(phone);
    await user.type(phone, '9002223344');
    await user.click(find);
    await user.click(await screen.findByRole('button', { name: 'Пригласить' }));
    expect(await screen.findByText('Заявка отправлена успешно')).toBeInTheDocument();
    expect(server.callsTo('POST /api/admin/access_requests/')[0]?.body).toEqual({ user: 21, barrier: 5 });
  });

  it('shows why an invitation failed', async () => {
    signIn();
    mockApi({
      'GET /api/admin/barriers/5/users/': page('users', []),
      'POST /api/admin/users/search/': adminUser,
      'POST /api/admin/access_requests/': [500, {}],
    });
    const { user } = renderRoute(<BarrierUsersRoute />, { path: '/barrier-users', state });
    await user.type(await screen.findByLabelText('Номер телефона'), '9002223344');
    await user.click(screen.getByRole('button', { name: 'Найти' }));
    await user.click(await screen.findByRole('button', { name: 'Пригласить' }));
    expect(await screen.findByText('Ошибка отправки заявки')).toBeInTheDocument();
  });

  it('shows a blocked user as blocked with only the unblock button', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/users/': page('users', []),
      'POST /api/admin/users/search/': { ...adminUser, is_active: false, block_reason: 'Шумел' },
      'PATCH /api/admin/users/21/unblock/': [500, {}],
    });
    const { user } = renderRoute(<BarrierUsersRoute />, { path: '/barrier-users', state });
    await user.type(await screen.findByLabelText('Номер телефона'), '9002223344');
    await user.click(screen.getByRole('button', { name: 'Найти' }));
    expect(await screen.findByText('Заблокирован')).toBeInTheDocument();
    expect(screen.getByText(wholeText('Причина: Шумел'))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Пригласить' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Разблокировать' }));
    expect(await screen.findByText('Ошибка разблокировки')).toBeInTheDocument();
    server.on({ 'PATCH /api/admin/users/21/unblock/': adminUser });
    await user.click(screen.getByRole('button', { name: 'Разблокировать' }));
    expect(await screen.findByRole('button', { name: 'Пригласить' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Заблокирован')).not.toBeInTheDocument());
  });
});
