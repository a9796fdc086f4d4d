/** Issue 32 item 4: an ended session does not drop the person on /login without a word. */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { api, dropEarlyReads } from '../../../lib/api-client';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { createAppRouter } from '../../router';
import { LoginRoute } from './login';

describe('an ended session', () => {
  it('goes to /login saying «Сеанс завершён, войдите снова»', async () => {
    // Test files share one window (isolate: false): a session, an early read or an address that an earlier
    // file left behind would start this router elsewhere (it began on /start twice in CI under load, where no
    // loader sends an unrendered router on). A first visit to the root with none of them, here.
    window.localStorage.clear();
    dropEarlyReads();
    window.history.replaceState(null, '', '/');
    mockApi({
      'GET /api/users/me/': [401, { detail: 'Not authenticated.' }],
      'POST /api/auth/token/refresh/': [401, { detail: 'Invalid refresh token.' }],
    });
    const router = createAppRouter();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    // Nothing was ended yet: a first visit says nothing of a session.
    expect(router.state.location.state?.message).toBeUndefined();
    signIn();
    await expect(api.get('/api/users/me/')).rejects.toThrow();
    await waitFor(() =>
      expect(router.state.location.state).toEqual({ message: 'Сеанс завершён, войдите снова.' }),
    );
    expect(router.state.location.pathname).toBe('/login');
    expect(window.localStorage.getItem('refresh_token')).toBeNull();
    router.dispose();

    renderRoute(<LoginRoute />, { path: '/login', state: { message: 'Сеанс завершён, войдите снова.' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Сеанс завершён, войдите снова.');
    expect(screen.getByRole('heading', { name: 'Вход' })).toBeVisible();
  });
});
