import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mock-api';
import { AppProvider } from '../provider';
import { LoginShell } from './login-shell';
import { openShellAt, startsInShell } from './shell-history';

function renderShell() {
  const onLeave = vi.fn();
  render(
    <AppProvider env="test">
      <LoginShell onLeave={onLeave} />
    </AppProvider>,
  );
  return { onLeave, user: userEvent.setup() };
}

/** The light entry of the sign-in screens: /login and the code step without React Router (issue 32 item 8). */
describe('the sign-in screens without the router', () => {
  beforeEach(() => window.history.replaceState(null, '', '/login'));
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('starts there only without a stored session, on /login, /verifyuser or /', () => {
    for (const path of ['/login', '/verifyuser', '/login/', '/']) {
      window.history.replaceState(null, '', path);
      expect(startsInShell()).toBe(true);
    }
    window.history.replaceState(null, '', '/user');
    expect(startsInShell()).toBe(false);
    window.history.replaceState(null, '', '/login');
    window.localStorage.setItem('refresh_token', 'r-1');
    expect(startsInShell()).toBe(false);
    window.localStorage.removeItem('refresh_token');
    window.history.replaceState(null, '', '/');
    openShellAt();
    expect(window.location.pathname).toBe('/login');
  });

  it('goes from the number to the code step with the phone and token, as the router would', async () => {
    mockApi({
      'POST /api/users/check_admin/': { is_admin: false },
      'POST /api/auth/codes/': {
        verification_token: 'tok-1',
        detail: 'Verification code sent.',
        retry_after: 60,
      },
    });
    const { onLeave, user } = renderShell();
    await user.type(screen.getByLabelText(/Введите номер телефона/), '9001234567');
    await user.click(screen.getByRole('button', { name: 'Далее' }));
    expect(await screen.findByRole('heading', { name: 'Подтверждение входа' })).toBeInTheDocument();
    expect(screen.getByText(/\+7 \(900\) 123-45-67/)).toBeInTheDocument();
    expect(window.location.pathname).toBe('/verifyuser');
    // React Router's browser history format: the whole app, loaded later, reads the same entry.
    expect(window.history.state).toMatchObject({
      usr: { phone: '+79001234567', verification_token: 'tok-1', retry_after: 60 },
      idx: 1,
    });
    expect(onLeave).not.toHaveBeenCalled();

    // The browser's Back returns to the number step.
    window.history.back();
    expect(await screen.findByRole('heading', { name: 'Вход' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/login');
    // «Изменить номер телефона» on the code step goes there too.
    window.history.forward();
    await user.click(await screen.findByRole('button', { name: /Изменить номер телефона/ }));
    expect(await screen.findByRole('heading', { name: 'Вход' })).toBeInTheDocument();
  });

  it('hands over to the whole app when the code logs in, with the session stored', async () => {
    window.history.replaceState(
      { usr: { phone: '+79001234567', verification_token: 'tok-1' }, key: 'k', idx: 1 },
      '',
      '/verifyuser',
    );
    mockApi({
      'PATCH /api/auth/codes/verify/': { message: 'Code verified successfully.', consent_required: false },
      'POST /api/auth/login/': { access_token: 'a-1', refresh_token: 'r-1' },
    });
    const { onLeave, user } = renderShell();
    await user.type(await screen.findByLabelText(/Код из СМС/), '123456');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    await vi.waitFor(() => expect(onLeave).toHaveBeenCalledTimes(1));
    expect(window.location.pathname).toBe('/start');
    expect(window.localStorage.getItem('access_token')).toBe('a-1');
  });

  it('an administrator’s number leaves for the password step, which the whole app shows', async () => {
    mockApi({ 'POST /api/users/check_admin/': { is_admin: true } });
    const { onLeave, user } = renderShell();
    await user.type(screen.getByLabelText(/Введите номер телефона/), '9001234567');
    await user.click(screen.getByRole('button', { name: 'Далее' }));
    await vi.waitFor(() => expect(onLeave).toHaveBeenCalledTimes(1));
    expect(window.location.pathname).toBe('/verifyadmin');
    expect(window.history.state).toMatchObject({ usr: { phone: '+79001234567' } });
  });
});
