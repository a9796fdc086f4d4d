import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { rememberReturn, takeReturn } from '../../../lib/return-after-login';
import { page } from '../../../test/admin-fixtures';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { userBarrier } from '../../../test/user-fixtures';
import { StartRoute } from './start';

// /start's two reads (resident-home.ts), answered when the test says (under load they come after the return is
// taken). Through the fake server, not a module mock: the web's test files share one module graph per worker,
// and a mock would not reach a start.tsx an earlier file had already imported (it then read for real).
let answerHome: () => void = () => {};
function residentWithOneBarrier() {
  const answered = new Promise<void>((resolve) => {
    answerHome = resolve;
  });
  return mockApi({
    'GET /api/barriers/my/': async () => {
      await answered;
      return page('barriers', [{ ...userBarrier, id: 7, has_access: true, pending_request: null }], 1);
    },
    'GET /api/access_requests/my/': async () => {
      await answered;
      return page('access_requests', []);
    },
  });
}

describe('/start', () => {
  afterEach(() => {
    window.sessionStorage.clear();
    window.localStorage.clear();
  });

  it('takes the resident to his home once its reads answer', async () => {
    residentWithOneBarrier();
    signIn();
    const { router } = renderRoute(<StartRoute />, { path: '/start' });
    answerHome();
    await waitFor(() => expect(router.state.location.pathname).toBe('/mybarrier'));
    expect(screen.getByTestId('navigation-state')).toHaveTextContent('"barrier_id":7');
  });

  it('leaves him where his ended session left him when that return was taken before the reads answered', async () => {
    const server = residentWithOneBarrier();
    signIn();
    const { router } = renderRoute(<StartRoute />, { path: '/start' });
    // What require-session.tsx does on the first screen behind the login; its navigation is still loading.
    rememberReturn({ pathname: '/add-phone', search: '', state: { barrier_id: 7 } }, '+79001234567');
    expect(takeReturn('+79001234567')).not.toBeNull();
    answerHome();
    await waitFor(() => expect(server.callsTo('GET /api/access_requests/my/')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(router.state.location.pathname).toBe('/start');
  });
});
