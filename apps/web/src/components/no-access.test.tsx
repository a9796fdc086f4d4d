import { NO_ACCESS_TEXTS } from '@propusk/contracts/texts/staff';
import { screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { BarrierHistoryAdminRoute } from '../app/routes/admin/barrier-history-admin';
import { BarrierUsersRoute } from '../app/routes/admin/barrier-users';
import { GuestPassesAdminRoute } from '../app/routes/admin/guest-passes-admin';
import { page } from '../test/admin-fixtures';
import { mockApi } from '../test/mock-api';
import { renderRoute, signIn } from '../test/render';

const state = { barrier_id: 5 };
const forbidden = [
  403,
  { detail: 'Your role on this barrier does not allow this action.', code: 'barrier_permission_denied' },
] as const;
const notFound = [404, { detail: 'Barrier not found.', code: 'barrier_not_found' }] as const;

/** Screens a dispatcher may open by a link or the browser's history without holding their permission. */
const screens: {
  name: string;
  path: string;
  element: ReactNode;
  call: string;
  others?: Record<string, unknown>;
}[] = [
  {
    name: 'users',
    path: '/barrier-users',
    element: <BarrierUsersRoute />,
    call: 'GET /api/admin/barriers/5/users/',
  },
  {
    name: 'history',
    path: '/barrier-history-admin',
    element: <BarrierHistoryAdminRoute />,
    call: 'GET /api/admin/barriers/5/actions/',
  },
  {
    name: 'guest passes',
    path: '/guest-passes-admin',
    element: <GuestPassesAdminRoute />,
    call: 'GET /api/admin/barriers/5/guest-passes/',
    others: { 'GET /api/admin/barriers/5/users/': page('users', []) },
  },
];

describe('a forbidden screen says «Нет доступа» (issue 32 item 7)', () => {
  for (const { name, path, element, call, others } of screens) {
    it(`${name}: 403 for the role → «Нет доступа», what to do, and back to the barrier`, async () => {
      signIn();
      mockApi({ [call]: forbidden, ...others } as Parameters<typeof mockApi>[0]);
      const { user } = renderRoute(element, { path, state });
      const block = await screen.findByTestId('no-access');
      expect(block).toHaveTextContent(NO_ACCESS_TEXTS.title);
      expect(block).toHaveTextContent('Попросите владельца шлагбаума дать вам это право.');
      expect(screen.queryByText('Шлагбаум не найден')).toBeNull();
      expect(screen.queryByText(/Недостаточно прав/)).toBeNull();
      await user.click(screen.getByRole('button', { name: NO_ACCESS_TEXTS.back }));
      expect(await screen.findByText('Screen: /admin-barrier-page')).toBeInTheDocument();
      expect(screen.getByTestId('navigation-state')).toHaveTextContent('{"barrier_id":5}');
    });

    it(`${name}: 404 still says the barrier was not found`, async () => {
      signIn();
      mockApi({ [call]: notFound, ...others } as Parameters<typeof mockApi>[0]);
      renderRoute(element, { path, state });
      expect(await screen.findByRole('alert')).toHaveTextContent(/^Шлагбаум не найден\.?$/);
      expect(screen.queryByTestId('no-access')).toBeNull();
      expect(screen.queryByText(NO_ACCESS_TEXTS.title)).toBeNull();
    });
  }
});
