import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, networkFailure } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { wholeText } from '../../../test/text-matchers';
import { userBarrier, userProfile } from '../../../test/user-fixtures';
import { BarrierDetailsRoute } from './barrier-details';

const state = { barrier_id: 8 };

describe('/barrier-details', () => {
  it('tells a user blocked by the administrator why, and offers no request', async () => {
    signIn();
    const server = mockApi({
      'GET /api/barriers/8/': { ...userBarrier, device_phone: null, block_reason: 'Не платит взносы' },
      'GET /api/users/me/': userProfile,
    });
    renderRoute(<BarrierDetailsRoute />, { path: '/barrier-details', state });
    const notice = await screen.findByTestId('blocked-notice');
    expect(notice).toHaveTextContent('Администратор этого шлагбаума заблокировал вам доступ.');
    expect(notice).toHaveTextContent('Причина: Не платит взносы');
    expect(screen.queryByRole('button', { name: 'Отправить запрос' })).not.toBeInTheDocument();
    expect(server.callsTo('POST /api/access_requests/')).toHaveLength(0);
  });

  it('shows the public card and sends an access request for me and this barrier', async () => {
    signIn();
    const server = mockApi({
      'GET /api/barriers/8/': userBarrier,
      'GET /api/users/me/': userProfile,
      'POST /api/access_requests/': [201, { id: 90, status: 'pending' }],
    });
    const { user } = renderRoute(<BarrierDetailsRoute />, { path: '/barrier-details', state });
    expect(await screen.findByTestId('barrier-address')).toHaveTextContent(userBarrier.address);
    expect(screen.getByText('Въезд с переулка')).toBeInTheDocument();
    expect(
      screen.getByText(wholeText('Администратор: Анна Админова, +7 (900) 111-22-33')),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Отправить запрос' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Запрос успешно отправлен.');
    expect(screen.getByRole('button', { name: 'Отправить запрос' })).toBeDisabled();
    expect(server.callsTo('POST /api/access_requests/')).toHaveLength(1);
    expect(server.callsTo('POST /api/access_requests/')[0]?.body).toEqual({ user: 7, barrier: 8 });
    expect(server.callsTo('POST /api/admin/access_requests/')).toHaveLength(0);
  });

  it('says "У вас уже есть доступ к шлагбауму." when the server says I already have access', async () => {
    signIn();
    mockApi({
      'GET /api/barriers/8/': userBarrier,
      'GET /api/users/me/': userProfile,
      'POST /api/access_requests/': [400, { detail: 'This user already has access to the barrier.' }],
    });
    const { user } = renderRoute(<BarrierDetailsRoute />, { path: '/barrier-details', state });
    await user.click(await screen.findByRole('button', { name: 'Отправить запрос' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('У вас уже есть доступ к шлагбауму.');
    expect(screen.queryByText('Запрос успешно отправлен.')).not.toBeInTheDocument();
  });

  it('says "Ошибка при отправке запроса" for any other failure, the lost connection included', async () => {
    signIn();
    const server = mockApi({
      'GET /api/barriers/8/': userBarrier,
      'GET /api/users/me/': userProfile,
      'POST /api/access_requests/': [500, {}],
    });
    const { user } = renderRoute(<BarrierDetailsRoute />, { path: '/barrier-details', state });
    await user.click(await screen.findByRole('button', { name: 'Отправить запрос' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ошибка при отправке запроса');

    server.on({ 'POST /api/access_requests/': networkFailure });
    await user.click(screen.getByRole('button', { name: 'Отправить запрос' }));
    await waitFor(() => expect(server.callsTo('POST /api/access_requests/')).toHaveLength(2));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ошибка при отправке запроса');
  });

  it('says "Шлагбаум не найден" for an unknown barrier', async () => {
    signIn();
    mockApi({ 'GET /api/barriers/8/': [404, {}], 'GET /api/users/me/': userProfile });
    renderRoute(<BarrierDetailsRoute />, { path: '/barrier-details', state });
    expect(await screen.findByRole('alert')).toHaveTextContent('Шлагбаум не найден');
    expect(screen.queryByRole('button', { name: 'Отправить запрос' })).not.toBeInTheDocument();
  });
});
