import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { failedPhone, temporaryPhone } from '../../../test/admin-fixtures';
import { mockApi, networkFailure } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { EditPhoneAdminRoute } from './edit-phone-admin';

describe('/edit-phone-admin', () => {
  it('needs a name, then saves through the admin call and returns to the user profile', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/phones/32/': failedPhone,
      'PATCH /api/admin/phones/32/': ({ body }) => ({ ...failedPhone, ...(body as object) }),
    });
    const { user } = renderRoute(<EditPhoneAdminRoute />, {
      path: '/edit-phone-admin',
      state: { phone_id: 32, user_id: 21, barrier_id: 5 },
    });
    expect(await screen.findByRole('heading', { name: 'Редактировать номер' })).toBeInTheDocument();
    const name = await screen.findByLabelText(/Имя/);
    expect(name).toHaveValue('Жена');
    await user.clear(name);
    expect(await screen.findByText('Введите имя.')).toBeInTheDocument();
    await user.type(name, 'Супруга');
    await user.click(screen.getByRole('button', { name: 'Сохранить изменения' }));
    expect(await screen.findByText('Screen: /user-profile')).toBeInTheDocument();
    expect(screen.getByTestId('navigation-state')).toHaveTextContent('{"user_id":21,"barrier_id":5}');
    expect(server.callsTo('PATCH /api/admin/phones/32/')[0]?.body).toEqual({ user: 21, name: 'Супруга' });
  });

  it('checks the window of a temporary phone and shows a network failure', async () => {
    signIn();
    mockApi({ 'GET /api/admin/phones/33/': temporaryPhone, 'PATCH /api/admin/phones/33/': networkFailure });
    const { user } = renderRoute(<EditPhoneAdminRoute />, {
      path: '/edit-phone-admin',
      state: { phone_id: 33, user_id: 21, barrier_id: 5 },
    });
    const end = await screen.findByLabelText(/Конец/);
    await user.clear(end);
    expect(await screen.findByText('Укажите время начала и конца.')).toBeInTheDocument();
    await user.type(end, '2030-05-02T18:00');
    await user.click(screen.getByRole('button', { name: 'Сохранить изменения' }));
    expect(await screen.findByText('Ошибка сети')).toBeInTheDocument();
  });
});
