import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { page } from '../../../test/admin-fixtures';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { AdminRequestsRoute } from './admin-requests';
import { BarrierUsersRoute } from './barrier-users';

const state = { barrier_id: 5 };

describe('invitation by number (issue 14 part 2)', () => {
  it('offers to invite a number without an account, and says whether the SMS went out', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/users/': page('users', []),
      'POST /api/admin/users/search/': [404, { detail: 'User not found.', code: 'user_not_found' }],
      'POST /api/admin/phone_invitations/': ({ body }) =>
        (body as { phone: string }).phone === '+79001112233'
          ? [201, { access_request: null, phone_invitation: {}, sms_sent: true, sms_status: 'sent' }]
          : [
              201,
              { access_request: null, phone_invitation: {}, sms_sent: false, sms_status: 'budget_exhausted' },
            ],
    });
    const { user } = renderRoute(<BarrierUsersRoute />, { path: '/barrier-users', state });
    const phone = await screen.findByLabelText('Номер телефона');
    await user.type(phone, '9001112233');
    await user.click(screen.getByRole('button', { name: 'Найти' }));
    expect(await screen.findByText('Пользователь не найден')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Пригласить по номеру' }));
    expect(
      await screen.findByText(
        'Приглашение отправлено по СМС. Оно появится у человека, когда он войдёт по этому номеру.',
      ),
    ).toBeInTheDocument();
    // The invitation succeeded: the red «Пользователь не найден» of the search before it is gone (issue 32 item 7).
    expect(screen.queryByText('Пользователь не найден')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(server.callsTo('POST /api/admin/phone_invitations/')[0]?.body).toEqual({
      barrier: 5,
      phone: '+79001112233',
    });

    await user.clear(phone);
    await user.type(phone, '9004445566');
    await user.click(screen.getByRole('button', { name: 'Найти' }));
    await user.click(await screen.findByRole('button', { name: 'Пригласить по номеру' }));
    expect(await screen.findByText(/СМС не отправлено/)).toBeInTheDocument();
  });

  it('lists the invitations waiting for a number on the outgoing tab and cancels one', async () => {
    signIn();
    const waiting = {
      id: 7,
      barrier: 5,
      barrier_address: 'ул. Ожидания, 1',
      phone: '+79001112233',
      status: 'waiting',
      sms_sent: true,
      created_at: '2026-11-21T12:00:00+03:00',
    };
    const server = mockApi({
      'GET /api/admin/access_requests/my/': page('access_requests', []),
      'GET /api/admin/phone_invitations/': page('phone_invitations', [waiting]),
      'DELETE /api/admin/phone_invitations/7/': [204, undefined],
    });
    const { user } = renderRoute(<AdminRequestsRoute />, { path: '/admin-requests' });
    await user.click(await screen.findByRole('tab', { name: 'Исходящие' }));
    const card = await screen.findByTestId('waiting-invitation');
    expect(card).toHaveTextContent('Ожидает регистрации');
    expect(card).toHaveTextContent('ул. Ожидания, 1');
    expect(card).toHaveTextContent('СМС с приглашением отправлено');
    server.on({ 'GET /api/admin/phone_invitations/': page('phone_invitations', []) });
    await user.click(screen.getByRole('button', { name: 'Отменить приглашение' }));
    await user.click(await screen.findByRole('button', { name: 'Да, отменить' }, { timeout: 10_000 }));
    await waitFor(() => expect(screen.queryByTestId('waiting-invitation')).toBeNull());
    expect(server.callsTo('DELETE /api/admin/phone_invitations/7/')).toHaveLength(1);
  });
});
