import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../test/mock-api';
import { ApiError, api, setSessionLostHandler } from './api-client';

describe('api client', () => {
  afterEach(() => setSessionLostHandler(() => {}));

  it('sends the stored access token as a bearer token', async () => {
    window.localStorage.setItem('access_token', 'access-1');
    const server = mockApi({ 'GET /api/users/me/': { id: 1 } });
    await expect(api.get('/api/users/me/')).resolves.toEqual({ id: 1 });
    expect(server.calls[0]?.headers.authorization).toBe('Bearer access-1');
  });

  it('refreshes once for all requests that got a 401 at the same time, then retries each', async () => {
    window.localStorage.setItem('access_token', 'expired');
    window.localStorage.setItem('refresh_token', 'refresh-1');
    const authorized = ({ headers }: { headers: Record<string, string> }) =>
      headers.authorization === 'Bearer fresh' ? [200, { ok: true }] : [401, { detail: 'Token expired.' }];
    const server = mockApi({
      'GET /api/users/me/': authorized,
      'GET /api/barriers/': authorized,
      'GET /api/access_requests/my/': authorized,
      'POST /api/auth/token/refresh/': ({ body }) =>
        (body as { refresh: string }).refresh === 'refresh-1' ? { access: 'fresh' } : [401, {}],
    });
    const results = await Promise.all([
      api.get('/api/users/me/'),
      api.get('/api/barriers/'),
      api.get('/api/access_requests/my/'),
    ]);
    expect(results).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(server.callsTo('POST /api/auth/token/refresh/')).toHaveLength(1);
    expect(window.localStorage.getItem('access_token')).toBe('fresh');
  });

  it('stores the rotated refresh token and presents it at the next refresh', async () => {
    window.localStorage.setItem('access_token', 'expired');
    window.localStorage.setItem('refresh_token', 'refresh-1');
    const live = new Map([
      ['refresh-1', { access: 'access-2', refresh: 'refresh-2' }],
      ['refresh-2', { access: 'access-3', refresh: 'refresh-3' }],
    ]);
    const server = mockApi({
      'GET /api/users/me/': ({ headers }) =>
        headers.authorization === 'Bearer access-2' || headers.authorization === 'Bearer access-3'
          ? [200, { ok: true }]
          : [401, { detail: 'Token expired.' }],
      'POST /api/auth/token/refresh/': ({ body }) =>
        live.get((body as { refresh: string }).refresh) ?? [401, { code: 'refresh_reused' }],
    });
    await expect(api.get('/api/users/me/')).resolves.toEqual({ ok: true });
    expect(window.localStorage.getItem('refresh_token')).toBe('refresh-2');
    window.localStorage.setItem('access_token', 'expired-again');
    await expect(api.get('/api/users/me/')).resolves.toEqual({ ok: true });
    const presented = server
      .callsTo('POST /api/auth/token/refresh/')
      .map((call) => (call.body as { refresh: string }).refresh);
    expect(presented).toEqual(['refresh-1', 'refresh-2']);
    expect(window.localStorage.getItem('refresh_token')).toBe('refresh-3');
  });

  it('takes the tokens another tab refreshed while this one waited for the refresh lock', async () => {
    window.localStorage.setItem('access_token', 'expired');
    window.localStorage.setItem('refresh_token', 'refresh-1');
    // Another tab holds the lock, presents refresh-1 and stores its rotated tokens before this tab gets it.
    const locks = {
      request: async <T>(_name: string, callback: () => Promise<T>) => {
        window.localStorage.setItem('access_token', 'access-from-other-tab');
        window.localStorage.setItem('refresh_token', 'refresh-2');
        return callback();
      },
    };
    Object.defineProperty(window.navigator, 'locks', { value: locks, configurable: true });
    try {
      const server = mockApi({
        'GET /api/users/me/': ({ headers }) =>
          headers.authorization === 'Bearer access-from-other-tab' ? [200, { ok: true }] : [401, {}],
        'POST /api/auth/token/refresh/': [401, { code: 'refresh_reused' }],
      });
      await expect(api.get('/api/users/me/')).resolves.toEqual({ ok: true });
      expect(server.callsTo('POST /api/auth/token/refresh/')).toHaveLength(0);
      expect(window.localStorage.getItem('refresh_token')).toBe('refresh-2');
    } finally {
      Reflect.deleteProperty(window.navigator, 'locks');
    }
  });

  it('clears the session and calls the session-lost handler when the refresh fails', async () => {
    window.localStorage.setItem('access_token', 'expired');
    window.localStorage.setItem('refresh_token', 'revoked');
    window.localStorage.setItem('phone', '+79001234567');
    const lost = vi.fn();
    setSessionLostHandler(lost);
    mockApi({
      'GET /api/users/me/': [401, { detail: 'Token expired.' }],
      'POST /api/auth/token/refresh/': [401, { detail: 'Refresh token is invalid or expired.' }],
    });
    await expect(api.get('/api/users/me/')).rejects.toBeInstanceOf(ApiError);
    expect(lost).toHaveBeenCalledTimes(1);
    expect(window.localStorage.getItem('access_token')).toBeNull();
    expect(window.localStorage.getItem('refresh_token')).toBeNull();
    expect(window.localStorage.getItem('phone')).toBeNull();
  });

  it('tells the router of a session lost before it registered its handler (a read the entry sent early)', async () => {
    vi.resetModules();
    const early = await import('./api-client');
    window.localStorage.setItem('access_token', 'expired');
    window.localStorage.setItem('refresh_token', 'revoked');
    mockApi({
      'GET /api/barriers/my/': [401, { detail: 'Token expired.' }],
      'POST /api/auth/token/refresh/': [401, { detail: 'Refresh token is invalid or expired.' }],
    });
    await expect(early.api.get('/api/barriers/my/')).rejects.toBeInstanceOf(early.ApiError);
    const lost = vi.fn();
    early.setSessionLostHandler(lost);
    expect(lost).toHaveBeenCalledTimes(1);
    const later = vi.fn();
    early.setSessionLostHandler(later);
    expect(later).not.toHaveBeenCalled();
  });

  it('does not refresh for calls made without a session (login screens)', async () => {
    const server = mockApi({ 'PATCH /api/auth/codes/verify/': [401, { detail: 'Nope.' }] });
    await expect(api.patch('/api/auth/codes/verify/', {}, { auth: false })).rejects.toMatchObject({
      status: 401,
    });
    expect(server.callsTo('POST /api/auth/token/refresh/')).toHaveLength(0);
  });

  it('leaves empty query values out', async () => {
    const server = mockApi({ 'GET /api/barriers/': { barriers: [] } });
    await api.get('/api/barriers/', { query: { page: 2, address: '', ordering: undefined } });
    expect(server.calls[0]?.query.toString()).toBe('page=2');
  });
});
