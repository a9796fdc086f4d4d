import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { EmergencyHoldRoute } from './emergency-hold';

const hold = (states: string[], ended = false) => ({
  id: 5,
  reason: 'Пожарная тревога',
  rule: 'п. 71',
  started_at: '2026-11-21T12:00:00+03:00',
  started_by: 1,
  started_by_name: 'Диспетчер',
  ended_at: ended ? '2026-11-21T12:30:00+03:00' : null,
  ended_by: ended ? 1 : null,
  ended_by_name: ended ? 'Диспетчер' : null,
  barriers: states.map((state, index) => ({
    barrier: index + 1,
    address: `ул. Пожарная, д. ${index + 1}`,
    phase: ended ? 'end' : 'hold',
    state,
    refused: state === 'refused' ? 'relay_dialect_unknown' : null,
    retrying: state === 'failed',
    attempts: 1,
    restored_relay_seconds: null,
  })),
});

describe('/emergency-hold', () => {
  it('asks one confirmation naming п. 71, then shows each barrier live and shouts a failure', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/emergency-holds/': { holds: [], total_count: 0, current_page: 1, page_size: 10 },
      'GET /api/admin/barriers/my/': {
        barriers: [{ id: 1, address: 'ул. Пожарная, д. 1' }],
        total_count: 1,
        current_page: 1,
        page_size: 100,
      },
      'POST /api/admin/emergency-holds/': [201, hold(['confirmed', 'failed'])],
      'GET /api/admin/emergency-holds/5/': hold(['confirmed', 'failed']),
    });
    renderRoute(<EmergencyHoldRoute />, { path: '/emergency-hold' });
    expect(await screen.findByTestId('emergency-rule')).toHaveTextContent('ПП РФ № 1479');
    const start = await screen.findByRole('button', { name: 'Открыть и удерживать' });
    expect(start).toBeDisabled();
    fireEvent.change(screen.getByRole('textbox', { name: /Причина/ }), {
      target: { value: 'Пожарная тревога' },
    });
    fireEvent.click(start);
    expect(await screen.findByRole('dialog')).toHaveTextContent(
      'по пункту 71 Правил противопожарного режима в РФ (ПП РФ № 1479)',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Да, открыть' }));
    expect(await screen.findByTestId('hold-title')).toHaveTextContent('Экстренное открытие действует');
    const states = await screen.findAllByTestId('hold-barrier-state');
    expect(states.map((state) => state.textContent)).toEqual(['Открыт, удерживается', 'Ошибка']);
    const shouts = screen.getAllByRole('alert').filter((alert) => /вручную/.test(alert.textContent ?? ''));
    expect(shouts).toHaveLength(1);
    expect(server.callsTo('POST /api/admin/emergency-holds/')[0]?.body).toEqual({
      barrier_ids: 'all',
      reason: 'Пожарная тревога',
    });
  });
  it('a running hold opened from the list still shows its end once ended (not the start form)', async () => {
    signIn();
    let ended = false;
    mockApi({
      'GET /api/admin/emergency-holds/': () => ({
        holds: ended ? [hold(['confirmed'], true)] : [hold(['confirmed'])],
        total_count: 1,
        current_page: 1,
        page_size: 10,
      }),
      'GET /api/admin/barriers/my/': { barriers: [], total_count: 0, current_page: 1, page_size: 100 },
      'GET /api/admin/emergency-holds/5/': () => hold(['confirmed'], ended),
      'POST /api/admin/emergency-holds/5/end/': () => {
        ended = true;
        return hold(['confirmed'], true);
      },
    });
    renderRoute(<EmergencyHoldRoute />, { path: '/emergency-hold' });
    expect(await screen.findByTestId('hold-title')).toHaveTextContent('Экстренное открытие действует');
    fireEvent.click(await screen.findByTestId('end-hold'));
    fireEvent.click(await screen.findByRole('button', { name: 'Да, завершить' }));
    expect(await screen.findByText('Экстренное открытие завершено')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getByTestId('hold-title')).toHaveTextContent('Экстренное открытие завершено');
    expect(screen.queryByRole('button', { name: 'Открыть и удерживать' })).not.toBeInTheDocument();
  });

  it('offline: «Открыть и удерживать» says «Нет связи» and nothing goes out when the network returns (issue 32 item 1)', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/emergency-holds/': { holds: [], total_count: 0, current_page: 1, page_size: 10 },
      'GET /api/admin/barriers/my/': {
        barriers: [{ id: 1, address: 'ул. Пожарная, д. 1' }],
        total_count: 1,
        current_page: 1,
        page_size: 100,
      },
      'POST /api/admin/emergency-holds/': [201, hold(['confirmed'])],
    });
    const setOnline = (online: boolean) => {
      Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
      window.dispatchEvent(new Event(online ? 'online' : 'offline'));
    };
    renderRoute(<EmergencyHoldRoute />, { path: '/emergency-hold' });
    await screen.findByRole('button', { name: 'Открыть и удерживать' });
    fireEvent.change(screen.getByRole('textbox', { name: /Причина/ }), {
      target: { value: 'Пожарная тревога' },
    });
    try {
      act(() => setOnline(false));
      const start = screen.getByRole('button', { name: 'Нет связи' });
      expect(start).toBeDisabled();
      fireEvent.click(start);
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      act(() => setOnline(true));
      expect(await screen.findByRole('button', { name: 'Открыть и удерживать' })).toBeEnabled();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(server.callsTo('POST /api/admin/emergency-holds/')).toHaveLength(0);
    } finally {
      setOnline(true);
    }
  });
});
