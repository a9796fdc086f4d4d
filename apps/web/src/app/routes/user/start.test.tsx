import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberReturn, takeReturn } from '../../../lib/return-after-login';
import { renderRoute, signIn } from '../../../test/render';
import type { ResidentHome } from './resident-home';
import { StartRoute } from './start';

// /start's two reads, answered when the test says (under load they come after the return is taken).
let answerHome: (home: ResidentHome) => void = () => {};
vi.mock('./resident-home', () => ({
  takeResidentHome: () =>
    new Promise<ResidentHome>((resolve) => {
      answerHome = resolve;
    }),
}));

const home = { to: '/mybarrier', state: { barrier_id: 7 } } as ResidentHome;

describe('/start', () => {
  afterEach(() => {
    window.sessionStorage.clear();
    window.localStorage.clear();
  });

  it('takes the resident to his home once its reads answer', async () => {
    signIn();
    const { router } = renderRoute(<StartRoute />, { path: '/start' });
    answerHome(home);
    await waitFor(() => expect(router.state.location.pathname).toBe('/mybarrier'));
    expect(screen.getByTestId('navigation-state')).toHaveTextContent('"barrier_id":7');
  });

  it('leaves him where his ended session left him when that return was taken before the reads answered', async () => {
    signIn();
    const { router } = renderRoute(<StartRoute />, { path: '/start' });
    // What require-session.tsx does on the first screen behind the login; its navigation is still loading.
    rememberReturn({ pathname: '/add-phone', search: '', state: { barrier_id: 7 } }, '+79001234567');
    expect(takeReturn('+79001234567')).not.toBeNull();
    answerHome(home);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(router.state.location.pathname).toBe('/start');
  });
});
