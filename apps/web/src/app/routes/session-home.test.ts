import { beforeEach, describe, expect, it } from 'vitest';
import { mockApi } from '../../test/mock-api';
import { signIn } from '../../test/render';
import { userProfile } from '../../test/user-fixtures';
import { findSessionHome } from './find-session-home';
import { loginLoader } from './session-home';

describe('a stored session skips the login screen', () => {
  beforeEach(() => window.localStorage.clear());

  it('sends a user to his area and an administrator to his, asking for no code', async () => {
    signIn();
    const server = mockApi({ 'GET /api/users/me/': userProfile });
    expect(await findSessionHome()).toBe('/start');
    server.on({ 'GET /api/users/me/': { ...userProfile, role: 'admin' } });
    const redirect = (await loginLoader()) as Response;
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('/admin');
    expect(server.callsTo('POST /api/auth/codes/')).toHaveLength(0);
  });

  it('shows the login screen without a session or when the session is gone', async () => {
    const server = mockApi({
      'GET /api/users/me/': [401, { detail: 'Not authenticated.' }],
      'POST /api/auth/token/refresh/': [401, { detail: 'Invalid refresh token.' }],
    });
    expect(await loginLoader()).toBeNull();
    expect(server.callsTo('GET /api/users/me/')).toHaveLength(0);
    signIn();
    expect(await loginLoader()).toBeNull();
    expect(window.localStorage.getItem('refresh_token')).toBeNull();
  });
});
