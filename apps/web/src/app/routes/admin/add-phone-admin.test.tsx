import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { failedPhone } from '../../../test/admin-fixtures';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { AddPhoneAdminRoute } from './add-phone-admin';

const state = { user_id: 21, barrier_id: 5 };

describe('/add-phone-admin', () => {
  it('keeps save disabled while name or phone is missing or malformed', async () => {
    signIn();
    mockApi();
    const { user } = renderRoute(<AddPhoneAdminRoute />, { path: '/add-phone-admin', state });
    const save = screen.getByRole('button', { name: 'Сохранить' });
    expect(save).toBeDisabled();
    await user.type(screen.getByLabelText(/Имя/), 'Жена');
    await user.type(screen.getByLabelText(/Номер телефона/), '900');
    expect(await screen.findByText('Номер телефона должен быть в формате +7XXXXXXXXXX.')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.clear(screen.getByLabelText(/Имя/));
    expect(await screen.findByText('Введите имя и номер телефона.')).toBeInTheDocument();
  });

  it('needs a start before the end for a temporary phone', async () => {
    signIn();
    mockApi();
    const { user } = renderRoute(<AddPhoneAdminRoute />, { path: '/add-phone-admin', state });
    await user.type(screen.getByLabelText(/Имя/), 'Гость');
    await user.type(screen.getByLabelText(/Номер телефона/), '9004445566');
    await user.click(screen.getByRole('textbox', { name: 'Тип номера' }));
    await user.click(await screen.findByRole('option', { name: 'Временный' }));
    const start = screen.getByLabelText(/Начало/);
    const end = screen.getByLabelText(/Конец/);
    await user.type(start, '2030-05-01T18:00');
    await user.type(end, '2030-05-01T09:00');
    expect(await screen.findByText('Время начала должно быть раньше времени конца.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Сохранить' })).toBeDisabled();
  });

  it('adds the phone for the user and returns to his profile', async () => {
    signIn();
    const server = mockApi({ 'POST /api/admin/barriers/5/phones/': [201, failedPhone] });
    const { user } = renderRoute(<AddPhoneAdminRoute />, { path: '/add-phone-admin', state });
    await user.type(screen.getByLabelText(/Имя/), 'Жена');
    await user.type(screen.getByLabelText(/Номер телефона/), '9003334455');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Screen: /user-profile')).toBeInTheDocument();
    expect(screen.getByTestId('navigation-state')).toHaveTextContent('{"user_id":21,"barrier_id":5}');
    expect(server.callsTo('POST /api/admin/barriers/5/phones/')[0]?.body).toEqual({
      user: 21,
      name: 'Жена',
      phone: '+79003334455',
      type: 'permanent',
    });
  });

  it('shows the server refusal', async () => {
    signIn();
    mockApi({
      'POST /api/admin/barriers/5/phones/': [
        409,
        { detail: 'This number is already on this barrier.', code: 'phone_duplicate' },
      ],
    });
    const { user } = renderRoute(<AddPhoneAdminRoute />, { path: '/add-phone-admin', state });
    await user.type(screen.getByLabelText(/Имя/), 'Жена');
    await user.type(screen.getByLabelText(/Номер телефона/), '9003334455');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Этот номер уже есть на шлагбауме.')).toBeInTheDocument();
  });
});
