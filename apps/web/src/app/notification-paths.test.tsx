/**
 * A notification opens the screen with its barrier (issue 43, docs/decisions/0035): each path the server
 * names (`?barrier_id=`) reaches the screen without navigation state, and the screen shows that barrier; a
 * `barrier_id` that is not a positive integer shows the «missing barrier» state and reads nothing.
 */
import { COMMON_MESSAGES } from '@propusk/contracts/texts/common';
import { screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { barrierIdFromSearch } from '../hooks/use-navigation-state';
import { mockApi } from '../test/mock-api';
import { renderRoute, signIn } from '../test/render';
import { ownPrimaryPhone, userBarrier } from '../test/user-fixtures';
import { BarrierSettingsRoute } from './routes/admin/barrier-settings';
import { BarrierUsersRoute } from './routes/admin/barrier-users';
import { DeviceLogAdminRoute } from './routes/admin/device-log-admin';
import { barrier, barrierUser, deviceHealth, limits, page } from './routes/admin/test-data';
import { MyBarrierRoute } from './routes/user/my-barrier';

const emptyLog = { ...page('messages', [], 0, 1, 20), unrecognised_count: 0 };

const screens: {
  path: string;
  element: ReactNode;
  api: Record<string, unknown>;
  shows: string;
}[] = [
  {
    path: '/device-log-admin',
    element: <DeviceLogAdminRoute />,
    api: {
      'GET /api/admin/barriers/5/device-health/': deviceHealth,
      'GET /api/admin/barriers/5/device-log/': emptyLog,
    },
    shows: 'GET /api/admin/barriers/5/device-log/',
  },
  {
    path: '/barrier-settings',
    element: <BarrierSettingsRoute />,
    api: {
      'GET /api/admin/barriers/5/': barrier,
      'GET /api/admin/barriers/5/settings/': { settings: {} },
    },
    shows: barrier.address,
  },
  {
    path: '/barrier-users',
    element: <BarrierUsersRoute />,
    api: { 'GET /api/admin/barriers/5/users/': page('users', [barrierUser]) },
    shows: barrierUser.full_name,
  },
  {
    path: '/mybarrier',
    element: <MyBarrierRoute />,
    api: {
      'GET /api/barriers/5/': { ...userBarrier, id: 5 },
      'GET /api/barriers/5/limits/': limits,
      'GET /api/barriers/5/phones/my/': { phones: [{ ...ownPrimaryPhone, barrier: 5 }], total_count: 1 },
      'GET /api/barriers/5/guest-passes/': page('guest_passes', [], 0, 1, 100),
      'GET /api/barriers/5/openings/': page('openings', [], 0, 1, 10),
    },
    shows: userBarrier.address,
  },
];

describe('a notification’s path opens its screen with the barrier', () => {
  for (const { path, element, api, shows } of screens) {
    it(`${path}?barrier_id=5 shows barrier 5 with no navigation state`, async () => {
      signIn();
      const server = mockApi(api as Parameters<typeof mockApi>[0]);
      renderRoute(element, { path: `${path}?barrier_id=5` });
      if (shows.startsWith('GET ')) {
        await screen.findByText('Журнал устройства');
        await expect.poll(() => server.callsTo(shows).length).toBeGreaterThan(0);
      } else {
        expect((await screen.findAllByText(shows, { exact: false })).length).toBeGreaterThan(0);
      }
      expect(screen.queryByText(COMMON_MESSAGES.barrierNotFound)).not.toBeInTheDocument();
    });

    it(`${path} with a barrier_id that is no positive integer shows «missing barrier» and reads nothing`, async () => {
      signIn();
      const server = mockApi(api as Parameters<typeof mockApi>[0]);
      renderRoute(element, { path: `${path}?barrier_id=5abc` });
      expect(await screen.findByText(COMMON_MESSAGES.barrierNotFound)).toBeInTheDocument();
      expect(server.calls.filter((call) => /\/barriers\/\d+\//.test(call.path))).toEqual([]);
    });
  }

  it('the navigation state the app passes wins over the address', async () => {
    signIn();
    const server = mockApi({ 'GET /api/admin/barriers/7/users/': page('users', [barrierUser]) });
    renderRoute(<BarrierUsersRoute />, { path: '/barrier-users?barrier_id=5', state: { barrier_id: 7 } });
    expect(await screen.findByText(barrierUser.full_name)).toBeInTheDocument();
    expect(server.callsTo('GET /api/admin/barriers/5/users/')).toEqual([]);
  });

  it('takes only a positive integer that PostgreSQL’s integer holds', () => {
    expect(barrierIdFromSearch('?barrier_id=12')).toBe(12);
    expect(barrierIdFromSearch('?kind=x&barrier_id=2147483647')).toBe(2147483647);
    for (const bad of [
      '',
      '?barrier_id=',
      '?barrier_id=0',
      '?barrier_id=-3',
      '?barrier_id=1.5',
      '?barrier_id=012',
      '?barrier_id=2147483648',
      '?barrier_id=1e3',
      `?barrier_id=${'9'.repeat(5000)}`,
    ])
      expect(barrierIdFromSearch(bad)).toBeNull();
  });
});
