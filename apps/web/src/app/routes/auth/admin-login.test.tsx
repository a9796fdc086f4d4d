import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, networkFailure } from '../../../test/mock-api';
import { renderRoute } from '../../../test/render';
import { SmsAdminRoute } from './sms-admin';
import { VerifyAdminRoute } from './verify-admin';

const phone = '+79001112233';

describe('administrator login: /verifyadmin then /smsadmin', () => {
  it('verifies the password, requests the login code and opens /smsadmin with the token', async () => {
    const server = mockApi({
      'POST /api/auth/admin/password_verification/': { message: 'Password verified successfully.' },
      'POST /api/auth/codes/': [201, { verification_token: 'tok-a', detail: 'sent' }],
    });
    const { user } = renderRoute(<VerifyAdminRoute />, { path: '/verifyadmin', state: { phone } });
    await user.type(screen.getByLabelText(/Пароль/), 'secret-1');
    await user.click(screen.getByRole('button', { name: 'Далее' }));
    expect(await screen.findByText('Screen: /smsadmin')).toBeInTheDocument();
    expect(screen.getByTestId('navigation-state')).toHaveTextContent(
      `{"phone":"${phone}","verification_token":"tok-a","retry_after":null}`,
    );
    expect(server.callsTo('POST /api/auth/codes/')[0]?.body).toEqual({ phone, mode: 'login' });
    expect(window.localStorage.getItem('verification_token')).toBe('tok-a');
  });

  it('passes a lost connection of the code request on to /smsadmin as its error', async () => {
    mockApi({
      'POST /api/auth/admin/password_verification/': { message: 'Password verified successfully.' },
      'POST /api/auth/codes/': networkFailure,
    });
    const { user } = renderRoute(<VerifyAdminRoute />, { path: '/verifyadmin', state: { phone } });
    await user.type(screen.getByLabelText(/Пароль/), 'secret-1');
    await user.click(screen.getByRole('button', { name: 'Далее' }));
    expect(await screen.findByText('Screen: /smsadmin')).toBeInTheDocument();
    expect(screen.getByTestId('navigation-state')).toHaveTextContent(
      `{"phone":"${phone}","verification_token":null,"error":"Сервер недоступен. Попробуйте позже.","retry_after":null}`,
    );
  });

  it('logs the administrator in with the code and opens /admin; a refusal says "Ошибка входа"', async () => {
    const server = mockApi({
      'PATCH /api/auth/codes/verify/': { message: 'Code verified successfully.' },
      'POST /api/auth/login/': [403, {}],
    });
    const { user } = renderRoute(<SmsAdminRoute />, {
      path: '/smsadmin',
      state: { phone, verification_token: 'tok-a' },
    });
    expect(screen.getByRole('heading', { name: 'Код из СМС' })).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Код из СМС/), '123456');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ошибка входа');
    server.on({ 'POST /api/auth/login/': { access_token: 'a-2', refresh_token: 'r-2' } });
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(await screen.findByText('Screen: /admin')).toBeInTheDocument();
    expect(window.localStorage.getItem('access_token')).toBe('a-2');
    expect(window.localStorage.getItem('phone')).toBe(phone);
  });
});
