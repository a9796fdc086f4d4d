import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { limits } from '../../../test/admin-fixtures';
import { type MockHandler, mockApi, networkFailure } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { ownExtraPhone, ownPrimaryPhone, userBarrier } from '../../../test/user-fixtures';
import { MyBarrierRoute } from './my-barrier';

const opening = {
  id: 31,
  barrier: 8,
  user: 1,
  user_name: 'Жилец',
  user_phone: '+79001234567',
  via: 'app',
  requested_at: '2026-11-21T12:00:00+03:00',
  status: 'sent',
  failure: null,
  confirmed_at: null,
};
const list = (items: object[]) => ({
  openings: items,
  total_count: items.length,
  current_page: 1,
  page_size: 10,
});

describe('/mybarrier: «Открыть»', () => {
  it('opens, shows «Открывается…» then «Открыто», and lists the opening in «Мои открытия»', async () => {
    signIn();
    let confirmed = false;
    const server = mockApi({
      'GET /api/barriers/8/': userBarrier,
      'GET /api/barriers/8/limits/': limits,
      'GET /api/barriers/8/phones/my/': { phones: [ownPrimaryPhone, ownExtraPhone], total_count: 2 },
      'GET /api/barriers/8/guest-passes/': {
        guest_passes: [],
        total_count: 0,
        current_page: 1,
        page_size: 100,
      },
      'GET /api/barriers/8/openings/': () =>
        list(
          confirmed ? [{ ...opening, status: 'confirmed', confirmed_at: '2026-11-21T12:00:05+03:00' }] : [],
        ),
      'POST /api/barriers/8/open/': () => {
        setTimeout(() => {
          confirmed = true;
        }, 50);
        return [201, opening];
      },
    });
    renderRoute(<MyBarrierRoute />, { path: '/mybarrier', state: { barrier_id: 8 } });
    expect(await screen.findByText('Мои открытия')).toBeInTheDocument();
    expect(await screen.findByText('Открытий пока нет.')).toBeInTheDocument();
    fireEvent.click(await screen.findByTestId('open-gate'));
    expect(await screen.findByTestId('open-gate-state')).toHaveTextContent('Открыто');
    expect(server.calls.some((call) => call.method === 'POST' && call.path === '/api/barriers/8/open/')).toBe(
      true,
    );
    expect(await screen.findByTestId('opening-card')).toHaveTextContent('Открыто');
  });

  it('says why when the server refuses (too often)', async () => {
    signIn();
    mockApi({
      'GET /api/barriers/8/': userBarrier,
      'GET /api/barriers/8/limits/': limits,
      'GET /api/barriers/8/phones/my/': { phones: [ownPrimaryPhone], total_count: 1 },
      'GET /api/barriers/8/guest-passes/': {
        guest_passes: [],
        total_count: 0,
        current_page: 1,
        page_size: 100,
      },
      'GET /api/barriers/8/openings/': list([]),
      'POST /api/barriers/8/open/': [
        429,
        {
          detail: 'Too many openings: wait before opening again.',
          code: 'too_many_openings',
          retry_after: 20,
        },
      ],
    });
    renderRoute(<MyBarrierRoute />, { path: '/mybarrier', state: { barrier_id: 8 } });
    fireEvent.click(await screen.findByTestId('open-gate'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Слишком часто. Подождите и откройте снова.');
  });

  const screenApi = (open: MockHandler) => ({
    'GET /api/barriers/8/': userBarrier,
    'GET /api/barriers/8/limits/': limits,
    'GET /api/barriers/8/phones/my/': { phones: [ownPrimaryPhone], total_count: 1 },
    'GET /api/barriers/8/guest-passes/': {
      guest_passes: [],
      total_count: 0,
      current_page: 1,
      page_size: 100,
    },
    'GET /api/barriers/8/openings/': list([]),
    'POST /api/barriers/8/open/': open,
  });
  const setOnline = (online: boolean) => {
    Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  };

  it('offline: says «Нет связи» at once, sends nothing, and nothing goes out when the network returns', async () => {
    signIn();
    const server = mockApi(screenApi(() => [201, opening]));
    renderRoute(<MyBarrierRoute />, { path: '/mybarrier', state: { barrier_id: 8 } });
    const button = await screen.findByTestId('open-gate');
    try {
      act(() => setOnline(false));
      expect(button).toHaveTextContent('Нет связи');
      expect(button).toBeDisabled();
      expect(screen.getByTestId('open-gate-offline')).toHaveTextContent('Позвоните на шлагбаум');
      fireEvent.click(button);
      act(() => setOnline(true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(button).toHaveTextContent('Открыть');
      expect(server.calls.filter((call) => call.method === 'POST')).toEqual([]);
    } finally {
      setOnline(true);
    }
  });

  it('a request lost on the way is not retried when the network returns; the tap time goes with it', async () => {
    signIn();
    const server = mockApi(screenApi(networkFailure));
    renderRoute(<MyBarrierRoute />, { path: '/mybarrier', state: { barrier_id: 8 } });
    fireEvent.click(await screen.findByTestId('open-gate'));
    expect(await screen.findByTestId('open-gate-offline')).toHaveTextContent('не будет отправлена позже');
    act(() => setOnline(false));
    act(() => setOnline(true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const posts = server.calls.filter((call) => call.method === 'POST');
    expect(posts).toHaveLength(1);
    const body = posts[0]?.body as { tapped_at?: string } | undefined;
    expect(Date.parse(body?.tapped_at ?? '')).toBeGreaterThan(Date.now() - 5_000);
  });
});
