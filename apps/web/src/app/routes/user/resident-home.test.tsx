/**
 * Issue 32 item 4, the gate one tap away: where a returning resident lands (his barrier, his barrier list,
 * his invitation, his profile), «Открыть» and «Позвонить» on the list's rows, «Входящие» opened for an invited person, and /login saying that the session ended.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { getPendingIncomingCount } from '../../../features/access-requests/api/access-requests-api';
import { getBarrier, getLimits } from '../../../features/barriers/api/barriers-api';
import { getGuestPasses } from '../../../features/guest-passes/api/guest-passes-api';
import { getMyPhones } from '../../../features/phones/api/phones-api';
import { getOpenings } from '../../../features/relay/api/relay-api';
import { getProfile } from '../../../features/users/api/profile-api';
import { api, sendEarlyRead } from '../../../lib/api-client';
import { accessRequest, limits, page } from '../../../test/admin-fixtures';
import { type MockReply, mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { ownPrimaryPhone, userBarrier, userProfile } from '../../../test/user-fixtures';
import { loginLoader, rootLoader } from '../session-home';
import { BarriersRoute } from './barriers';
import { MyBarrierRoute } from './my-barrier';
import { RequestsRoute } from './requests';
import {
  findResidentHome,
  sendBarrierScreenReadsEarly,
  startResidentHomeEarly,
  takeResidentHome,
} from './resident-home';
import { StartRoute } from './start';

const mine = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    ...userBarrier,
    id: 8 + index,
    address: `ул Арбат, д ${10 + index}`,
    device_phone: `+7900555000${index}`,
    has_access: true,
    pending_request: null,
  }));

function residentServer(barrierCount: number, invitations: number) {
  return mockApi({
    'GET /api/users/me/': userProfile,
    'GET /api/barriers/my/': page('barriers', mine(Math.min(barrierCount, 2)), barrierCount),
    'GET /api/access_requests/my/': page(
      'access_requests',
      Array.from({ length: invitations }, (_, index) => ({
        ...accessRequest(index + 1),
        initiator: 'admin',
      })),
    ),
  });
}

const startsOn = async () => {
  const { router } = renderRoute(<StartRoute />, { path: '/start' });
  await waitFor(() => expect(router.state.location.pathname).not.toBe('/start'));
  return {
    path: `${router.state.location.pathname}${router.state.location.search}`,
    state: router.state.location.state as { barrier_id?: number } | null,
  };
};

describe('a returning resident lands with the gate one tap away', () => {
  beforeEach(() => window.localStorage.clear());

  it('sends a stored resident session from / and /login to /start, asking for no code', async () => {
    signIn();
    const server = residentServer(1, 0);
    expect(((await rootLoader()) as Response).headers.get('location')).toBe('/start');
    expect(((await loginLoader()) as Response).headers.get('location')).toBe('/start');
    expect(server.callsTo('POST /api/auth/codes/')).toHaveLength(0);
  });

  it('starts on his one barrier, his list of several, his invitation, else his profile', async () => {
    signIn();
    residentServer(1, 1);
    expect(await startsOn()).toEqual({ path: '/mybarrier', state: { barrier_id: 8 } });
    residentServer(3, 0);
    expect((await startsOn()).path).toBe('/barriers');
    const invited = residentServer(0, 1);
    expect((await startsOn()).path).toBe('/requests?tab=incoming');
    const asked = invited.callsTo('GET /api/access_requests/my/')[0]?.query;
    expect([asked?.get('type'), asked?.get('status')]).toEqual(['incoming', 'pending']);
    residentServer(0, 0);
    expect((await startsOn()).path).toBe('/user');
  });

  it('takes the two reads a page opened on /start sent from the entry, before the router loaded', async () => {
    signIn();
    const server = residentServer(1, 0);
    window.history.replaceState(null, '', '/profile');
    startResidentHomeEarly();
    expect(server.callsTo('GET /api/barriers/my/')).toHaveLength(0);

    window.history.replaceState(null, '', '/start');
    startResidentHomeEarly();
    // Sent at once: before any screen is drawn.
    expect(server.callsTo('GET /api/barriers/my/')).toHaveLength(1);
    expect(server.callsTo('GET /api/access_requests/my/')).toHaveLength(1);
    expect(await startsOn()).toEqual({ path: '/mybarrier', state: { barrier_id: 8 } });
    expect(server.callsTo('GET /api/barriers/my/')).toHaveLength(1);

    // Taken once: /start opened again later asks again (his barriers may have changed).
    await startsOn();
    expect(server.callsTo('GET /api/barriers/my/')).toHaveLength(2);
  });

  it("sends his barrier screen's reads once /start's reads name his one barrier; the screen takes them", async () => {
    signIn();
    const server = residentServer(1, 0);
    server.on({
      'GET /api/barriers/8/': userBarrier,
      'GET /api/barriers/8/limits/': limits,
      'GET /api/barriers/8/phones/my/': { phones: [ownPrimaryPhone], total_count: 1 },
      'GET /api/barriers/8/guest-passes/': page('guest_passes', []),
      'GET /api/barriers/8/openings/': page('openings', []),
    });
    window.history.replaceState(null, '', '/start');
    startResidentHomeEarly();
    expect(server.callsTo('GET /api/users/me/')).toHaveLength(1);
    await waitFor(() => expect(server.callsTo('GET /api/barriers/8/openings/')).toHaveLength(1));

    // What the barrier screen, the consent gate and the bottom bar ask: answered by the early reads, no call more.
    await Promise.all([
      takeResidentHome(),
      getBarrier(8),
      getLimits(8),
      getMyPhones(8),
      getGuestPasses(8),
      getOpenings('user', 8, {}, 1),
      getProfile(),
      getPendingIncomingCount('user'),
    ]);
    for (const read of [
      'GET /api/users/me/',
      'GET /api/barriers/my/',
      'GET /api/access_requests/my/',
      'GET /api/barriers/8/',
      'GET /api/barriers/8/limits/',
      'GET /api/barriers/8/phones/my/',
      'GET /api/barriers/8/guest-passes/',
      'GET /api/barriers/8/openings/',
    ])
      expect(server.callsTo(read), read).toHaveLength(1);

    // Taken once: a refetch asks the server.
    await getLimits(8);
    expect(server.callsTo('GET /api/barriers/8/limits/')).toHaveLength(2);
  });

  it('asks the server again after a write, and for another account', async () => {
    signIn();
    const server = residentServer(1, 0);
    server.on({ 'GET /api/barriers/8/limits/': limits, 'POST /api/barriers/8/open/': {} });
    sendBarrierScreenReadsEarly(8);
    await api.post('/api/barriers/8/open/', {});
    await getLimits(8);
    expect(server.callsTo('GET /api/barriers/8/limits/')).toHaveLength(2);

    sendEarlyRead('/api/users/me/');
    window.localStorage.setItem('phone', '+79990001122');
    await getProfile();
    expect(server.callsTo('GET /api/users/me/')).toHaveLength(2);
  });

  it("draws his barrier's card from /start's row while the card's own read is on its way", async () => {
    signIn();
    const server = residentServer(1, 0);
    let answerCard: (reply: MockReply) => void = () => {};
    server.on({
      'GET /api/barriers/8/': () =>
        new Promise<MockReply>((resolve) => {
          answerCard = resolve;
        }),
      'GET /api/barriers/8/limits/': limits,
      'GET /api/barriers/8/phones/my/': { phones: [ownPrimaryPhone], total_count: 1 },
      'GET /api/barriers/8/guest-passes/': page('guest_passes', []),
      'GET /api/barriers/8/openings/': page('openings', []),
    });
    renderRoute(<StartRoute />, { path: '/start', routes: { '/mybarrier': <MyBarrierRoute /> } });

    expect(await screen.findByTestId('barrier-address')).toHaveTextContent('ул Арбат, д 10');
    expect(screen.getByText('Номер шлагбаума: +7 (900) 555-00-00')).toBeInTheDocument();
    expect(screen.getByTestId('call-barrier')).toHaveAttribute('href', 'tel:+79005550000');
    expect(screen.getByTestId('open-gate')).toHaveTextContent('Открыть');
    expect(screen.queryByLabelText('Загрузка')).toBeNull();
    expect(server.callsTo('GET /api/barriers/8/')).toHaveLength(1);

    // What only the card's read says arrives with it: here a block, which takes «Открыть» away.
    answerCard({ ...mine(1)[0], ...userBarrier, address: 'ул Арбат, д 10', block_reason: 'Долг за въезд' });
    expect(await screen.findByTestId('blocked-notice')).toHaveTextContent('Долг за въезд');
    expect(screen.queryByTestId('open-gate')).toBeNull();
  });

  it('sends nothing early without a stored session', () => {
    const server = residentServer(1, 0);
    window.history.replaceState(null, '', '/start');
    startResidentHomeEarly();
    expect(server.callsTo('GET /api/barriers/my/')).toHaveLength(0);
  });

  it('starts on his barrier list (its error and «Повторить») when his barriers cannot be read', async () => {
    signIn();
    mockApi({ 'GET /api/barriers/my/': [500, { detail: 'Internal error.' }] });
    expect(await findResidentHome()).toEqual({ to: '/barriers' });
  });

  it('puts «Открыть» and «Позвонить» on each of his barriers in the list', async () => {
    signIn();
    const server = mockApi({
      'GET /api/barriers/my/': page('barriers', mine(2), 2, 1, 5),
      'GET /api/barriers/9/openings/': page('openings', []),
      'POST /api/barriers/9/open/': [201, { id: 3, status: 'sent' }],
    });
    const { user } = renderRoute(<BarriersRoute />, { path: '/barriers' });
    const rows = await screen.findAllByTestId('barrier-gate-actions');
    expect(rows).toHaveLength(2);
    expect(within(rows[1] as HTMLElement).getByRole('link', { name: /Позвонить/ })).toHaveAttribute(
      'href',
      'tel:+79005550001',
    );
    await user.click(within(rows[1] as HTMLElement).getByRole('button', { name: 'Открыть' }));
    await waitFor(() => expect(server.callsTo('POST /api/barriers/9/open/')).toHaveLength(1));
    expect(server.callsTo('POST /api/barriers/8/open/')).toHaveLength(0);
    // Opening from the row does not leave the list.
    expect(screen.getAllByTestId('barrier-item')).toHaveLength(2);
  });

  it('opens «Входящие» with the invitation for an invited person, also without ?tab=', async () => {
    signIn();
    mockApi({
      'GET /api/access_requests/my/': ({ query }) =>
        query.get('type') === 'incoming'
          ? page('access_requests', [{ ...accessRequest(5), initiator: 'admin' }])
          : page('access_requests', []),
    });
    renderRoute(<RequestsRoute />, { path: '/requests' });
    expect(await screen.findByRole('tab', { name: 'Входящие', selected: true })).toBeInTheDocument();
    expect(await screen.findByText('ул Ленина, д 5')).toBeVisible();
  });
});
