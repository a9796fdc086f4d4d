import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  adminUser,
  deviceHealth,
  failedPhone,
  page,
  primaryPhone,
  temporaryPhone,
} from '../../../test/admin-fixtures';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { wholeText } from '../../../test/text-matchers';
import { UserProfileRoute } from './user-profile';

const state = { user_id: 21, barrier_id: 5 };

function profileApi(extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /api/admin/users/21/': adminUser,
    'GET /api/admin/barriers/5/phones/my/': page('phones', [primaryPhone, failedPhone, temporaryPhone]),
    'GET /api/admin/barriers/5/actions/': page('actions', [
      {
        id: 7,
        action_type: 'add_phone',
        created_at: '2026-01-11T10:00:00Z',
        author: 'admin',
        reason: 'manual',
        phone: 32,
        barrier: 5,
      },
    ]),
    ...extra,
  });
}

const findCard = async (phone: string) => {
  await screen.findAllByTestId('phone-card');
  return card(phone);
};
const card = (phone: string) =>
  screen.getAllByTestId('phone-card').find((element) => element.dataset.phone === phone) as HTMLElement;

describe('/user-profile', () => {
  it('shows the user, his phones with their device status, and his own history only', async () => {
    signIn();
    const server = profileApi();
    renderRoute(<UserProfileRoute />, { path: '/user-profile', state });
    expect(await screen.findByText('Пётр Жильцов')).toBeInTheDocument();
    expect(screen.getByTestId('user-status')).toHaveTextContent('Активен');
    await screen.findAllByTestId('phone-card');
    expect(within(card('+79002223344')).getByTestId('phone-status')).toHaveTextContent('Активен');
    expect(within(card('+79003334455')).getByTestId('phone-status')).toHaveTextContent('Ошибка');
    expect(within(card('+79004445566')).getByTestId('phone-status')).toHaveTextContent(
      'Отправляется на шлагбаум',
    );
    // The primary phone is the user's own number: no edit, no delete.
    expect(within(card('+79002223344')).queryByRole('button', { name: 'Удалить' })).not.toBeInTheDocument();
    expect(server.callsTo('GET /api/admin/barriers/5/phones/my/')[0]?.query.get('user')).toBe('21');
    expect(await screen.findByText(/#7/)).toBeInTheDocument();
    expect(server.callsTo('GET /api/admin/barriers/5/actions/')[0]?.query.get('user')).toBe('21');
  });

  it('says why a phone still waits when the device does not answer', async () => {
    signIn();
    profileApi({
      'GET /api/admin/barriers/5/device-health/': { ...deviceHealth, state: 'not_responding' },
    });
    renderRoute(<UserProfileRoute />, { path: '/user-profile', state });
    expect(await within(await findCard('+79004445566')).findByTestId('phone-status-note')).toHaveTextContent(
      'Устройство не отвечает',
    );
    expect(within(card('+79003334455')).getByTestId('phone-status-note')).toHaveTextContent(
      'Устройство не отвечает',
    );
    expect(within(card('+79002223344')).queryByTestId('phone-status-note')).not.toBeInTheDocument();
  });

  it('adds no note while the device is only waiting', async () => {
    signIn();
    const server = profileApi({
      'GET /api/admin/barriers/5/device-health/': { ...deviceHealth, state: 'waiting' },
    });
    renderRoute(<UserProfileRoute />, { path: '/user-profile', state });
    await screen.findAllByTestId('phone-card');
    await waitFor(() => expect(server.callsTo('GET /api/admin/barriers/5/device-health/')).toHaveLength(1));
    expect(screen.queryByTestId('phone-status-note')).not.toBeInTheDocument();
  });

  it('retries a phone whose device command failed, and only that one', async () => {
    signIn();
    // The list reads the phone as pending once the retry is in (not before: a refetch in between would take
    // the button away under the click).
    const server = profileApi({
      'POST /api/admin/phones/32/retry/': () => {
        server.on({
          'GET /api/admin/barriers/5/phones/my/': page('phones', [
            primaryPhone,
            { ...failedPhone, status: 'pending' },
          ]),
        });
        return { id: 32, status: 'pending' };
      },
    });
    const { user } = renderRoute(<UserProfileRoute />, { path: '/user-profile', state });
    await screen.findAllByTestId('phone-card');
    expect(screen.getAllByRole('button', { name: 'Повторить отправку' })).toHaveLength(1);
    await user.click(within(card('+79003334455')).getByRole('button', { name: 'Повторить отправку' }));
    expect(await within(card('+79003334455')).findByText('Отправляется на шлагбаум')).toBeInTheDocument();
    expect(server.callsTo('POST /api/admin/phones/32/retry/')).toHaveLength(1);
  });

  it('deletes an extra phone after a confirmation and shows the failure', async () => {
    signIn();
    const server = profileApi({ 'DELETE /api/admin/phones/33/': [500, {}] });
    const { user } = renderRoute(<UserProfileRoute />, { path: '/user-profile', state });
    await screen.findAllByTestId('phone-card');
    await user.click(within(card('+79004445566')).getByRole('button', { name: 'Удалить' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(server.callsTo('DELETE /api/admin/phones/33/')).toHaveLength(0);
    await user.click(within(card('+79004445566')).getByRole('button', { name: 'Удалить' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Да, удалить номер' }),
    );
    expect(await screen.findByText('Ошибка удаления номера')).toBeInTheDocument();
    expect(server.callsTo('DELETE /api/admin/phones/33/')).toHaveLength(1);
  });

  it('opens the edit and add screens with the ids', async () => {
    signIn();
    profileApi();
    const { user } = renderRoute(<UserProfileRoute />, { path: '/user-profile', state });
    await screen.findAllByTestId('phone-card');
    await user.click(within(card('+79003334455')).getByRole('button', { name: 'Изменить' }));
    expect(await screen.findByText('Screen: /edit-phone-admin')).toBeInTheDocument();
    expect(screen.getByTestId('navigation-state')).toHaveTextContent('"phone_id":32');
    expect(screen.getByTestId('navigation-state')).toHaveTextContent('"user_id":21');
  });

  it('blocks only with a reason, then offers to unblock', async () => {
    signIn();
    const server = profileApi({
      'PATCH /api/admin/users/21/block/': [500, {}],
    });
    const { user } = renderRoute(<UserProfileRoute />, { path: '/user-profile', state });
    await user.click(await screen.findByRole('button', { name: 'Заблокировать' }));
    expect(await screen.findByText('Укажите причину блокировки.')).toBeInTheDocument();
    expect(server.callsTo('PATCH /api/admin/users/21/block/')).toHaveLength(0);
    await user.type(screen.getByLabelText('Причина блокировки'), 'Не платит взносы');
    await user.click(screen.getByRole('button', { name: 'Заблокировать' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Причина: Не платит взносы');
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(server.callsTo('PATCH /api/admin/users/21/block/')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Заблокировать' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Да, заблокировать' }),
    );
    expect(await screen.findByText('Ошибка блокировки.')).toBeInTheDocument();
    const blocked = { ...adminUser, is_active: false, block_reason: 'Не платит взносы' };
    server.on({
      'PATCH /api/admin/users/21/block/': blocked,
      'GET /api/admin/users/21/': blocked,
      'GET /api/admin/barriers/5/phones/my/': page('phones', []),
    });
    await user.click(screen.getByRole('button', { name: 'Да, заблокировать' }));
    expect(await screen.findByText(wholeText('Причина: Не платит взносы'))).toBeInTheDocument();
    expect(screen.getByTestId('user-status')).toHaveTextContent('Заблокирован');
    expect(screen.getByRole('button', { name: 'Разблокировать' })).toBeInTheDocument();
    expect(await screen.findByText('Нет номеров')).toBeInTheDocument();
    expect(server.callsTo('PATCH /api/admin/users/21/block/').at(-1)?.body).toEqual({
      reason: 'Не платит взносы',
    });
  });

  it('says when the user cannot be loaded', async () => {
    signIn();
    profileApi({ 'GET /api/admin/users/21/': [500, {}] });
    renderRoute(<UserProfileRoute />, { path: '/user-profile', state });
    expect(await screen.findByText('Не удалось получить пользователя')).toBeInTheDocument();
  });
});
