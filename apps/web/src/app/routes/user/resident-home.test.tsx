/**
 * Issue 32 item 4, the gate one tap away: where a returning resident lands (his barrier, his barrier list,
 * his invitation, his profile), «Открыть» and «Позвонить» on the list's rows and on the barrier reached without
 * navigation state, «Входящие» opened for an invited person, and /login saying that the session ended.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { ownPrimaryPhone, userBarrier, userProfile } from '../../../test/user-fixtures';
import { accessRequest, limits, page } from '../admin/test-data';
import { loginLoader, rootLoader } from '../session-home';
import { BarriersRoute } from './barriers';
import { MyBarrierRoute } from './my-barrier';
import { RequestsRoute } from './requests';
import { findResidentHome } from './resident-home';

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

const location = async (loader: () => Promise<unknown>) =>
  ((await loader()) as Response).headers.get('location');

describe('a returning resident lands with the gate one tap away', { timeout: 30_000 }, () => {
  beforeEach(() => {
    window.localStorage.clear();
    window.sessionStorage.clear();
  });

  it('opens his one barrier, his list of several, his invitation, else his profile', async () => {
    signIn();
    residentServer(1, 1);
    expect(await location(rootLoader)).toBe('/mybarrier');
    expect(window.sessionStorage.getItem('propusk.home-barrier')).toBe('8');
    residentServer(3, 0);
    expect(await location(loginLoader)).toBe('/barriers');
    const invited = residentServer(0, 1);
    expect(await location(rootLoader)).toBe('/requests?tab=incoming');
    const asked = invited.callsTo('GET /api/access_requests/my/')[0]?.query;
    expect([asked?.get('type'), asked?.get('status')]).toEqual(['incoming', 'pending']);
    residentServer(0, 0);
    expect(await location(rootLoader)).toBe('/user');
  });

  it('starts on the profile when his barriers cannot be read', async () => {
    signIn();
    mockApi({
      'GET /api/users/me/': userProfile,
      'GET /api/barriers/my/': [500, { detail: 'Internal error.' }],
    });
    expect(await findResidentHome()).toBe('/user');
  });

  it('shows «Открыть» and «Позвонить» first on the barrier it sent him to without navigation state', async () => {
    signIn();
    window.sessionStorage.setItem('propusk.home-barrier', '8');
    const server = mockApi({
      'GET /api/barriers/8/': { ...userBarrier, has_access: true, pending_request: null },
      'GET /api/barriers/8/limits/': limits,
      'GET /api/barriers/8/phones/my/': { phones: [ownPrimaryPhone], total_count: 1 },
      'GET /api/barriers/8/guest-passes/': page('guest_passes', []),
      'GET /api/barriers/8/openings/': page('openings', []),
      'POST /api/barriers/8/open/': [201, { id: 1, status: 'sent' }],
    });
    const { user } = renderRoute(<MyBarrierRoute />, { path: '/mybarrier' });
    expect(await screen.findByTestId('barrier-address')).toHaveTextContent(userBarrier.address);
    expect(screen.getByTestId('call-barrier')).toHaveAttribute('href', 'tel:+79005550008');
    await user.click(screen.getByRole('button', { name: 'Открыть' }));
    await waitFor(() => expect(server.callsTo('POST /api/barriers/8/open/')).toHaveLength(1));
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
