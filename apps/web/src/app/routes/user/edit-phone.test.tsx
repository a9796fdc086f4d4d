import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { failedPhone } from '../../../test/admin-fixtures';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { EditPhoneRoute } from './edit-phone';

const schedulePhone = { ...failedPhone, id: 40, name: 'Няня', type: 'schedule', status: 'ok', barrier: 8 };

describe('/edit-phone', () => {
  it('saves the name and the schedule through the user calls and returns to the barrier', async () => {
    signIn();
    const server = mockApi({
      'GET /api/phones/40/': schedulePhone,
      'GET /api/phones/40/schedule/': { monday: [{ start_time: '08:00', end_time: '12:00' }] },
      'PATCH /api/phones/40/': ({ body }) => ({ ...schedulePhone, ...(body as object) }),
      'PUT /api/phones/40/schedule/': ({ body }) => body as Record<string, unknown>,
    });
    const { user } = renderRoute(<EditPhoneRoute />, {
      path: '/edit-phone',
      state: { phone_id: 40, barrier_id: 3 },
    });
    const name = await screen.findByLabelText(/Имя/);
    expect(name).toHaveValue('Няня');
    await user.clear(name);
    await user.type(name, 'Бабушка');
    await user.click(screen.getByRole('button', { name: 'Сохранить изменения' }));
    expect(await screen.findByText('Screen: /mybarrier')).toBeInTheDocument();
    expect(screen.getByTestId('navigation-state')).toHaveTextContent('{"barrier_id":8}');
    expect(server.callsTo('PATCH /api/phones/40/')[0]?.body).toEqual({ name: 'Бабушка' });
    expect(server.callsTo('PUT /api/phones/40/schedule/')[0]?.body).toEqual({
      monday: [{ start_time: '08:00', end_time: '12:00' }],
    });
    expect(server.callsTo('PATCH /api/admin/phones/40/')).toHaveLength(0);
  });
});
