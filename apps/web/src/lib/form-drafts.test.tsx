/** Issue 41: a half-filled form outlives an ended session, for the same number, once, never a password. */
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CreateBarrierRoute } from '../app/routes/admin/create-barrier';
import { AddPhoneRoute } from '../app/routes/user/add-phone';
import { mockApi } from '../test/mock-api';
import { renderRoute, signIn } from '../test/render';
import { setSessionLostHandler } from './api-client';
import { keepDrafts, registerDraft, takeDraft } from './form-drafts';
import { clearSession } from './storage';

const phone = '+79001234567';

describe('kept forms of an ended session', () => {
  afterEach(() => {
    vi.useRealTimers();
    window.sessionStorage.clear();
  });

  it('keeps what the forms on screen hold, without passwords or codes, for the same number, once', () => {
    const unregister = registerDraft('create-barrier|/create-barrier|-|-|-', () => ({
      address: 'Тверская 7',
      devicePassword: '1234',
      code: '123456',
    }));
    keepDrafts(phone);
    unregister();
    expect(window.sessionStorage.getItem('form_drafts')).not.toContain('1234"');
    expect(takeDraft('create-barrier|/create-barrier|-|-|-', '+79007654321')).toBeNull();
    // Another number's login threw the drafts away: nothing for the first one either.
    expect(takeDraft('create-barrier|/create-barrier|-|-|-', phone)).toBeNull();
  });

  it('gives them back once, not after half an hour, and never after a logout', () => {
    const key = 'add-phone|/add-phone|8|-|-';
    const unregister = registerDraft(key, () => ({ name: 'Жена', phone: '+7900' }));
    keepDrafts(phone);
    expect(takeDraft(key, phone)).toEqual({ name: 'Жена', phone: '+7900' });
    expect(takeDraft(key, phone)).toBeNull();

    vi.useFakeTimers();
    keepDrafts(phone);
    vi.advanceTimersByTime(31 * 60_000);
    expect(takeDraft(key, phone)).toBeNull();
    vi.useRealTimers();

    keepDrafts(phone);
    clearSession();
    expect(takeDraft(key, phone)).toBeNull();
    unregister();
  });

  it('a resident whose session ends while adding a number finds his name and number again', async () => {
    signIn(phone);
    mockApi({
      'POST /api/barriers/8/phones/': [401, { detail: 'Not authenticated.' }],
      'POST /api/auth/token/refresh/': [401, { detail: 'Invalid refresh token.' }],
    });
    const first = renderRoute(<AddPhoneRoute />, { path: '/add-phone', state: { barrier_id: 8 } });
    // What the app's router does when a session is lost (router.tsx).
    setSessionLostHandler((lostPhone) => {
      keepDrafts(lostPhone);
      void first.router.navigate('/login', { replace: true });
    });
    await first.user.type(screen.getByLabelText(/Имя/), 'Жена');
    await first.user.type(screen.getByLabelText(/Номер телефона/), '9003334455');
    await first.user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Screen: /login')).toBeInTheDocument();
    expect(window.localStorage.getItem('access_token')).toBeNull();
    first.unmount();

    // He logs in again with the same number and is back on the screen (return-after-login.ts).
    signIn(phone);
    const second = renderRoute(<AddPhoneRoute />, { path: '/add-phone', state: { barrier_id: 8 } });
    expect(await screen.findByLabelText(/Имя/)).toHaveValue('Жена');
    expect(screen.getByLabelText(/Номер телефона/)).toHaveValue('+7 (900) 333-44-55');
    expect(screen.getByRole('button', { name: 'Сохранить' })).toBeEnabled();
    second.unmount();

    // Taken once: the screen opened again later is empty.
    renderRoute(<AddPhoneRoute />, { path: '/add-phone', state: { barrier_id: 8 } });
    expect(await screen.findByLabelText(/Имя/)).toHaveValue('');
  });

  it('keeps a barrier being created, but not its device password', async () => {
    signIn(phone);
    const { user, unmount } = renderRoute(<CreateBarrierRoute />, { path: '/create-barrier' });
    await user.type(screen.getByLabelText('Дополнительная информация'), 'Въезд со двора');
    await user.type(screen.getByLabelText(/Пароль устройства/), '1234');
    keepDrafts(phone);
    unmount();
    renderRoute(<CreateBarrierRoute />, { path: '/create-barrier' });
    expect(await screen.findByLabelText('Дополнительная информация')).toHaveValue('Въезд со двора');
    expect(screen.getByLabelText(/Пароль устройства/)).toHaveValue('');
  });
});
