import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberReturn, takeReturn } from './return-after-login';

describe('back to the screen after a session ended', () => {
  afterEach(() => {
    vi.useRealTimers();
    window.sessionStorage.clear();
  });

  const myBarrier = { pathname: '/add-phone', search: '?x=1', state: { barrier_id: 7 } };

  it('returns to the screen and its state after the same number logs in, once', () => {
    rememberReturn(myBarrier, '+79001234567');
    expect(takeReturn('+79001234567')).toEqual({ to: '/add-phone?x=1', state: { barrier_id: 7 } });
    expect(takeReturn('+79001234567')).toBeNull();
  });

  it('starts at home for another number, after half an hour, or from a sign-in screen', () => {
    rememberReturn(myBarrier, '+79001234567');
    expect(takeReturn('+79007654321')).toBeNull();

    vi.useFakeTimers();
    rememberReturn(myBarrier, '+79001234567');
    vi.advanceTimersByTime(31 * 60_000);
    expect(takeReturn('+79001234567')).toBeNull();
    vi.useRealTimers();

    rememberReturn({ pathname: '/login', search: '', state: null }, '+79001234567');
    expect(takeReturn('+79001234567')).toBeNull();
  });

  it('ignores a stored value that is not a path of this site', () => {
    window.sessionStorage.setItem(
      'return_after_login',
      JSON.stringify({ to: '//evil.example/', state: null, phone: '+79001234567', at: Date.now() }),
    );
    expect(takeReturn('+79001234567')).toBeNull();
  });
});
