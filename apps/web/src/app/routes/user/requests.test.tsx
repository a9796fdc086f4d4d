import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { accessRequest, page } from '../../../test/admin-fixtures';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { RequestsRoute } from './requests';

describe('/requests', () => {
  it('opens on the outgoing tab and cancels a request through the user call, hiding it', async () => {
    signIn();
    const server = mockApi({
      'GET /api/access_requests/my/': ({ query }) =>
        query.get('type') === 'outgoing'
          ? page('access_requests', [{ ...accessRequest(4), type: 'outgoing' }])
          : page('access_requests', []),
      'PATCH /api/access_requests/4/': accessRequest(4, 'cancelled'),
    });
    const { user } = renderRoute(<RequestsRoute />, { path: '/requests' });
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Исходящие', 'Входящие']);
    await user.click(await screen.findByRole('button', { name: 'Отменить' }));
    expect(server.callsTo('PATCH /api/access_requests/4/')).toHaveLength(0);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Да, отменить' }));
    expect(server.callsTo('PATCH /api/access_requests/4/')[0]?.body).toEqual({
      status: 'cancelled',
      hidden_for_user: true,
    });
    const firstList = server.callsTo('GET /api/access_requests/my/')[0];
    expect(firstList?.query.get('type')).toBe('outgoing');
    expect(firstList?.query.get('page_size')).toBe('10');
    expect(server.callsTo('PATCH /api/admin/access_requests/4/')).toHaveLength(0);
  });

  it('accepts an incoming invitation', async () => {
    signIn();
    const server = mockApi({
      'GET /api/access_requests/my/': ({ query }) =>
        query.get('type') === 'incoming'
          ? page('access_requests', [accessRequest(6)])
          : page('access_requests', []),
      'PATCH /api/access_requests/6/': accessRequest(6, 'accepted'),
    });
    const { user } = renderRoute(<RequestsRoute />, { path: '/requests' });
    // An invitation waits for his answer: «Входящие» is open at once (issue 32 item 4), not an empty «Исходящие».
    expect(await screen.findByRole('tab', { name: 'Входящие', selected: true })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Принять' }));
    expect(server.callsTo('PATCH /api/access_requests/6/')[0]?.body).toEqual({ status: 'accepted' });
  });

  it('mutes an invitation’s administrator, and lifts the mute', async () => {
    signIn();
    let muted = false;
    const invitation = { ...accessRequest(7), initiator: 'admin', barrier_owner_name: 'Навязчивый' };
    const server = mockApi({
      'GET /api/access_requests/my/': ({ query }) =>
        query.get('type') === 'incoming' && !muted
          ? page('access_requests', [invitation])
          : page('access_requests', []),
      'POST /api/access_requests/7/mute/': () => {
        muted = true;
        return undefined;
      },
      'GET /api/invitation_mutes/': () => ({
        mutes: muted ? [{ id: 3, admin_name: 'Навязчивый', created_at: '2026-01-11T10:00:00Z' }] : [],
      }),
      'DELETE /api/invitation_mutes/3/': () => {
        muted = false;
        return undefined;
      },
    });
    const { user } = renderRoute(<RequestsRoute />, { path: '/requests' });
    await user.click(
      await screen.findByRole('button', { name: 'Не получать приглашения от этого администратора' }),
    );
    expect(server.callsTo('POST /api/access_requests/7/mute/')).toHaveLength(1);
    // Nothing waits for his answer any more: the screen opens «Исходящие» again, as after an answer.
    await user.click(await screen.findByRole('tab', { name: 'Входящие' }));
    const mutes = await screen.findByTestId('invitation-mutes');
    expect(within(mutes).getByText('Навязчивый')).toBeInTheDocument();
    expect(screen.queryByText('ул Ленина, д 7')).not.toBeInTheDocument();
    await user.click(within(mutes).getByRole('button', { name: 'Снова получать' }));
    expect(server.callsTo('DELETE /api/invitation_mutes/3/')).toHaveLength(1);
    expect(await screen.findByText('ул Ленина, д 7')).toBeInTheDocument();
  });
});
