import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, networkFailure } from '../../../test/mock-api';
import { renderRoute } from '../../../test/render';
import { VerifyUserRoute } from './verify-user';

const state = { phone: '+79001234567', verification_token: 'tok-1' };

describe('/verifyuser', () => {
  it('shows the phone, the code field with its helper text and a back button', () => {
    mockApi();
    renderRoute(<VerifyUserRoute />, { path: '/verifyuser', state });
    expect(screen.getByText('+7 (900) 123-45-67')).toBeInTheDocument();
    expect(screen.getByLabelText(/Код из СМС/)).toHaveAttribute('maxlength', '6');
    expect(screen.getByText('На телефон выслан код подтверждения')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Изменить номер телефона/ })).toBeInTheDocument();
  });

  it('rejects a code that is not six digits without calling the server', async () => {
    const server = mockApi();
    const { user } = renderRoute(<VerifyUserRoute />, { path: '/verifyuser', state });
    await user.type(screen.getByLabelText(/Код из СМС/), '12a3');
    expect(screen.getByLabelText(/Код из СМС/)).toHaveValue('123');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(screen.getAllByText('Код должен содержать 6 цифр.').length).toBeGreaterThan(0);
    expect(server.calls).toHaveLength(0);
  });

  it('verifies the code, logs in, stores the session and opens /start (his barrier, list, invitation or profile)', async () => {
    const server = mockApi({
      'PATCH /api/auth/codes/verify/': { message: 'Code verified successfully.' },
      'POST /api/auth/login/': { access_token: 'a-1', refresh_token: 'r-1' },
    });
    const { user } = renderRoute(<VerifyUserRoute />, { path: '/verifyuser', state });
    await user.type(screen.getByLabelText(/Код из СМС/), '123456');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(await screen.findByText('Screen: /start')).toBeInTheDocument();
    expect(server.callsTo('PATCH /api/auth/codes/verify/')[0]?.body).toEqual({
      phone: '+79001234567',
      code: '123456',
      verification_token: 'tok-1',
    });
    expect(server.callsTo('POST /api/auth/login/')[0]?.body).toEqual({
      phone: '+79001234567',
      verification_token: 'tok-1',
    });
    expect(window.localStorage.getItem('access_token')).toBe('a-1');
    expect(window.localStorage.getItem('refresh_token')).toBe('r-1');
    expect(window.localStorage.getItem('phone')).toBe('+79001234567');
  });

  it('translates a wrong code', async () => {
    mockApi({
      'PATCH /api/auth/codes/verify/': [400, { detail: 'Invalid verification code.', code: 'invalid_code' }],
    });
    const { user } = renderRoute(<VerifyUserRoute />, { path: '/verifyuser', state });
    await user.type(screen.getByLabelText(/Код из СМС/), '000000');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Неверный код подтверждения.');
  });

  it('shows the login failure detail, or a fallback, and the network error', async () => {
    const server = mockApi({
      'PATCH /api/auth/codes/verify/': { message: 'Code verified successfully.' },
      'POST /api/auth/login/': [403, {}],
    });
    const { user } = renderRoute(<VerifyUserRoute />, { path: '/verifyuser', state });
    await user.type(screen.getByLabelText(/Код из СМС/), '123456');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ошибка при входе');
    server.on({ 'PATCH /api/auth/codes/verify/': networkFailure });
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(await screen.findByText('Не удалось связаться с сервером')).toBeInTheDocument();
  });

  it('shows an error passed by the login screen and falls back to the stored token', async () => {
    window.localStorage.setItem('verification_token', 'stored-tok');
    const server = mockApi({
      'PATCH /api/auth/codes/verify/': [400, { detail: 'Invalid verification code.', code: 'invalid_code' }],
    });
    const { user } = renderRoute(<VerifyUserRoute />, {
      path: '/verifyuser',
      state: {
        phone: '+79001234567',
        verification_token: null,
        error: 'Ошибка при отправке кода. Попробуйте позже.',
      },
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Ошибка при отправке кода. Попробуйте позже.');
    await user.type(screen.getByLabelText(/Код из СМС/), '123456');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    await screen.findByText('Неверный код подтверждения.');
    expect(server.calls[0]?.body).toMatchObject({ verification_token: 'stored-tok' });
  });

  it('pre-fills a sample phone when opened without one', () => {
    mockApi();
    renderRoute(<VerifyUserRoute />, { path: '/verifyuser' });
    expect(screen.getByTestId('code-phone').textContent).toMatch(
      /^\+7\u00a0\(\d{3}\)\u00a0\d{3}-\d{2}-\d{2}$/,
    );
  });

  it('keeps resend disabled for 60 seconds with a countdown, then resends and replaces the token', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = mockApi({
      'POST /api/auth/codes/': [
        201,
        { verification_token: 'tok-2', detail: 'Verification code sent.', retry_after: 60 },
      ],
      'PATCH /api/auth/codes/verify/': [400, { detail: 'Invalid verification code.', code: 'invalid_code' }],
    });
    const { user } = renderRoute(<VerifyUserRoute />, { path: '/verifyuser', state, fakeTimers: true });
    const resend = screen.getByRole('button', { name: 'Отправить код повторно' });
    expect(resend).toBeDisabled();
    expect(screen.getByTestId('countdown')).toHaveTextContent('⏳ Отправить код повторно можно через 1:00');
    await act(async () => {
      vi.advanceTimersByTime(15_000);
    });
    expect(screen.getByTestId('countdown')).toHaveTextContent('через 0:45');
    await act(async () => {
      vi.advanceTimersByTime(45_000);
    });
    expect(resend).toBeEnabled();
    await user.click(resend);
    expect(await screen.findByText('Код отправлен повторно')).toBeInTheDocument();
    expect(resend).toBeDisabled();
    expect(server.callsTo('POST /api/auth/codes/')[0]?.body).toEqual({
      phone: '+79001234567',
      mode: 'login',
    });
    await user.type(screen.getByLabelText(/Код из СМС/), '123456');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    await screen.findByText('Неверный код подтверждения.');
    expect(server.callsTo('PATCH /api/auth/codes/verify/')[0]?.body).toMatchObject({
      verification_token: 'tok-2',
    });
  });

  it('shows the resend errors of the catalogue', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = mockApi({ 'POST /api/auth/codes/': [403, {}] });
    const { user } = renderRoute(<VerifyUserRoute />, { path: '/verifyuser', state, fakeTimers: true });
    await act(async () => {
      vi.advanceTimersByTime(60_000);
    });
    const resend = screen.getByRole('button', { name: 'Отправить код повторно' });
    await user.click(resend);
    expect(await screen.findByRole('alert')).toHaveTextContent('Пользователь заблокирован.');
    server.on({
      'POST /api/auth/codes/': [
        400,
        { phone: ['Phone must be in the format +7XXXXXXXXXX.'], mode: ['Invalid choice.'] },
      ],
    });
    await user.click(resend);
    expect(
      await screen.findByText(
        'Номер телефона должен быть в формате +7XXXXXXXXXX. Выберите одно из допустимых значений.',
      ),
    ).toBeInTheDocument();
    server.on({
      'POST /api/auth/codes/': [
        429,
        { detail: 'Too many requests. Try again later.', code: 'too_many_requests', retry_after: 30 },
      ],
    });
    await user.click(resend);
    // One timer: the server's 30 s restart the countdown box, the error line does not count them again.
    expect(await screen.findByText('Слишком много запросов. Попробуйте позже.')).toBeInTheDocument();
    expect(screen.queryByText(/Повторите через/)).not.toBeInTheDocument();
    expect(screen.getByTestId('countdown')).toHaveTextContent('⏳ Отправить код повторно можно через 0:30');
    expect(resend).toBeDisabled();
    await act(async () => {
      vi.advanceTimersByTime(30_000);
    });
    expect(resend).toBeEnabled();
    server.on({ 'POST /api/auth/codes/': networkFailure });
    await user.click(resend);
    expect(await screen.findByText('Не удалось повторно связаться с сервером')).toBeInTheDocument();
  });

  it('starts its one countdown from the wait the server gave the code request', () => {
    mockApi();
    renderRoute(<VerifyUserRoute />, {
      path: '/verifyuser',
      state: {
        phone: '+79001234567',
        verification_token: null,
        error: 'Код уже был отправлен. Попробуйте позже.',
        retry_after: 42,
      },
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Код уже был отправлен. Попробуйте позже.');
    expect(screen.getAllByText(/0:4\d|секунд/)).toHaveLength(1);
    expect(screen.getByTestId('countdown')).toHaveTextContent('⏳ Отправить код повторно можно через 0:42');
    expect(screen.getByRole('button', { name: 'Отправить код повторно' })).toBeDisabled();
  });
});
