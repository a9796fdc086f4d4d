import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, networkFailure } from '../../../test/mock-api';
import { renderRoute } from '../../../test/render';
import { LoginRoute } from './login';

const arrivedState = () => JSON.parse(screen.getByTestId('navigation-state').textContent ?? 'null');

describe('/login', () => {
  it('keeps the phone field to +7 and ten digits, adding the 7 and stripping other characters', async () => {
    mockApi();
    const { user } = renderRoute(<LoginRoute />, { path: '/login' });
    expect(screen.getByRole('heading', { name: 'Вход' })).toBeInTheDocument();
    const input = screen.getByLabelText(/Введите номер телефона/);
    expect(input).toHaveValue('+7');
    await user.clear(input);
    await user.type(input, '9(001) 23-45-67 89');
    expect(input).toHaveValue('+7 (900) 123-45-67');
  });

  it('does nothing while the number is incomplete', async () => {
    const server = mockApi();
    const { user } = renderRoute(<LoginRoute />, { path: '/login' });
    await user.type(screen.getByLabelText(/Введите номер телефона/), '900123');
    await user.click(screen.getByRole('button', { name: 'Далее' }));
    expect(server.calls).toHaveLength(0);
    expect(screen.getByText('Номер телефона должен быть в формате +7XXXXXXXXXX.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Введите номер телефона/), '4567');
    expect(screen.queryByText('Номер телефона должен быть в формате +7XXXXXXXXXX.')).not.toBeInTheDocument();
  });

  it('requests a login code for a user and goes to /verifyuser with the phone and token', async () => {
    const server = mockApi({
      'POST /api/users/check_admin/': { is_admin: false },
      'POST /api/auth/codes/': {
        verification_token: 'tok-1',
        detail: 'Verification code sent.',
        retry_after: 60,
      },
    });
    const { user } = renderRoute(<LoginRoute />, { path: '/login' });
    await user.type(screen.getByLabelText(/Введите номер телефона/), '9001234567');
    await user.click(screen.getByRole('button', { name: 'Далее' }));
    expect(await screen.findByText('Screen: /verifyuser')).toBeInTheDocument();
    expect(arrivedState()).toEqual({ phone: '+79001234567', verification_token: 'tok-1', retry_after: 60 });
    expect(server.callsTo('POST /api/auth/codes/')[0]?.body).toEqual({
      phone: '+79001234567',
      mode: 'login',
    });
    expect(window.localStorage.getItem('verification_token')).toBe('tok-1');
  });

  it('sends an administrator to /verifyadmin without requesting a code', async () => {
    const server = mockApi({ 'POST /api/users/check_admin/': { is_admin: true } });
    const { user } = renderRoute(<LoginRoute />, { path: '/login' });
    await user.type(screen.getByLabelText(/Введите номер телефона/), '9001234567');
    await user.click(screen.getByRole('button', { name: 'Далее' }));
    expect(await screen.findByText('Screen: /verifyadmin')).toBeInTheDocument();
    expect(arrivedState()).toEqual({ phone: '+79001234567' });
    expect(server.callsTo('POST /api/auth/codes/')).toHaveLength(0);
  });

  it('passes a refused code request to /verifyuser as a translated error with the wait for its countdown', async () => {
    mockApi({
      'POST /api/users/check_admin/': { is_admin: false },
      'POST /api/auth/codes/': [
        429,
        { detail: 'Verification code was already sent. Try again later.', retry_after: 42 },
      ],
    });
    const { user } = renderRoute(<LoginRoute />, { path: '/login' });
    await user.type(screen.getByLabelText(/Введите номер телефона/), '9001234567');
    await user.click(screen.getByRole('button', { name: 'Далее' }));
    expect(await screen.findByText('Screen: /verifyuser')).toBeInTheDocument();
    expect(arrivedState()).toEqual({
      phone: '+79001234567',
      verification_token: null,
      error: 'Код уже был отправлен. Попробуйте позже.',
      retry_after: 42,
    });
  });

  it('shows the network error of the phone step', async () => {
    mockApi({ 'POST /api/users/check_admin/': networkFailure });
    const { user } = renderRoute(<LoginRoute />, { path: '/login' });
    await user.type(screen.getByLabelText(/Введите номер телефона/), '9001234567');
    await user.click(screen.getByRole('button', { name: 'Далее' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ошибка сети. Попробуйте ещё раз.');
  });
});
