import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { page } from '../../../test/admin-fixtures';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { BarrierHistoryAdminRoute } from './barrier-history-admin';

const listedAction = {
  id: 41,
  action_type: 'delete_phone',
  created_at: '2026-01-11T10:00:00Z',
  author: 'admin',
  reason: 'barrier_exit',
  phone: 32,
  barrier: 5,
};

describe('/barrier-history-admin', () => {
  it('shows the whole barrier history through the admin calls, with details', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/actions/': page('actions', [listedAction]),
      'GET /api/admin/actions/41/': { ...listedAction, old_value: null, new_value: null },
      'GET /api/admin/phones/32/': { id: 32, phone: '+79003334455', type: 'permanent' },
    });
    const { user } = renderRoute(<BarrierHistoryAdminRoute />, {
      path: '/barrier-history-admin',
      state: { barrier_id: 5 },
    });
    expect(screen.getByRole('heading', { name: 'История изменений (Админ)' })).toBeInTheDocument();
    await user.click(await screen.findByText(/#41/));
    expect(await screen.findByText('Причина: Выход из шлагбаума')).toBeInTheDocument();
    expect(screen.getByText(/\+7 \(900\) 333-44-55/)).toBeInTheDocument();
    expect(server.callsTo('GET /api/admin/barriers/5/actions/')[0]?.query.get('user')).toBeNull();
  });
});
