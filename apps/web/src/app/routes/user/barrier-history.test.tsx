import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { page } from '../../../test/admin-fixtures';
import { mockApi, networkFailure } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { BarrierHistoryRoute } from './barrier-history';

const state = { barrier_id: 8 };

const action = (id: number, actionType = 'add_phone') => ({
  id,
  action_type: actionType,
  created_at: '2026-01-11T10:00:00Z',
  author: 'user',
  reason: 'manual',
  phone: 52,
  barrier: 8,
});

const firstPage = Array.from({ length: 10 }, (_, index) => action(index + 1));

describe('/barrier-history', () => {
  it('loads page 1 without empty filters, pages as "N / M" and sends the filters once set', async () => {
    signIn();
    const server = mockApi({
      'GET /api/barriers/8/actions/': ({ query }) =>
        query.get('page') === '2'
          ? page('actions', [action(11, 'delete_phone')], 25, 2)
          : page('actions', firstPage, 25),
    });
    const { user } = renderRoute(<BarrierHistoryRoute />, { path: '/barrier-history', state });
    expect(screen.getByRole('heading', { name: 'История изменений' })).toBeInTheDocument();
    expect(await screen.findAllByTestId('action-card')).toHaveLength(10);
    expect(screen.getByText('#1 Добавление номера')).toBeInTheDocument();
    const first = server.callsTo('GET /api/barriers/8/actions/')[0];
    expect([...(first?.query.keys() ?? [])].sort()).toEqual(['page', 'page_size']);
    expect(first?.query.get('page')).toBe('1');
    expect(first?.query.get('page_size')).toBe('10');
    expect(server.callsTo('GET /api/admin/barriers/8/actions/')).toHaveLength(0);
    expect(screen.getByTestId('pager-position')).toHaveTextContent('1 / 3');

    await user.click(screen.getByRole('button', { name: 'Вперёд' }));
    expect(await screen.findByText('#11 Удаление номера')).toBeInTheDocument();
    expect(screen.getByTestId('pager-position')).toHaveTextContent('2 / 3');
    await user.click(screen.getByRole('button', { name: /^Назад$/ }));
    expect(await screen.findByText('#1 Добавление номера')).toBeInTheDocument();
    expect(screen.getByTestId('pager-position')).toHaveTextContent('1 / 3');

    await user.click(screen.getByRole('textbox', { name: 'Тип действия' }));
    expect(await screen.findByRole('option', { name: 'Все действия' })).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Удаление номера' }));
    await waitFor(() =>
      expect(server.callsTo('GET /api/barriers/8/actions/').at(-1)?.query.get('action_type')).toBe(
        'delete_phone',
      ),
    );
    expect(server.callsTo('GET /api/barriers/8/actions/').at(-1)?.query.has('created_from')).toBe(false);

    await user.type(screen.getByLabelText('Создано с'), '2026-01-01T00:00');
    await waitFor(() =>
      expect(server.callsTo('GET /api/barriers/8/actions/').at(-1)?.query.get('created_from')).toMatch(
        /^2026-01-01T00:00:00[+-]\d\d:\d\d$/,
      ),
    );
    const filtered = server.callsTo('GET /api/barriers/8/actions/').at(-1);
    expect(filtered?.query.get('action_type')).toBe('delete_phone');
    expect(filtered?.query.get('page')).toBe('1');
    expect(filtered?.query.has('created_to')).toBe(false);
  });

  it('opens a detail box on a card and hides it by a second click or "Скрыть детали"', async () => {
    signIn();
    const server = mockApi({
      'GET /api/barriers/8/actions/': page('actions', [action(41, 'delete_phone')]),
      'GET /api/actions/41/': { ...action(41, 'delete_phone'), reason: 'barrier_exit' },
      'GET /api/phones/52/': { id: 52, phone: '+79003334455', type: 'permanent' },
    });
    const { user } = renderRoute(<BarrierHistoryRoute />, { path: '/barrier-history', state });
    const card = await screen.findByRole('button', { name: /#41 Удаление номера/ });
    expect(screen.getByTestId('pager-position')).toHaveTextContent('1 / 1');
    await user.click(card);
    expect(await screen.findByText('Причина: Выход из шлагбаума')).toBeInTheDocument();
    expect(screen.getByText('Номер: +7 (900) 333-44-55 (Постоянный)')).toBeInTheDocument();
    expect(screen.getByText('Автор: Пользователь')).toBeInTheDocument();
    expect(server.callsTo('GET /api/actions/41/')).toHaveLength(1);
    expect(server.callsTo('GET /api/phones/52/')).toHaveLength(1);

    await user.click(card);
    expect(screen.queryByTestId('action-detail')).not.toBeInTheDocument();
    await user.click(card);
    expect(await screen.findByText('Причина: Выход из шлагбаума')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Скрыть детали' }));
    expect(screen.queryByTestId('action-detail')).not.toBeInTheDocument();
  });

  it('says "Ошибка при загрузке истории." when the list fails', async () => {
    signIn();
    mockApi({ 'GET /api/barriers/8/actions/': [500, {}] });
    renderRoute(<BarrierHistoryRoute />, { path: '/barrier-history', state });
    expect(await screen.findByRole('alert')).toHaveTextContent('Ошибка при загрузке истории.');
  });

  it('says "Ошибка сети." when the list cannot be reached', async () => {
    signIn();
    mockApi({ 'GET /api/barriers/8/actions/': networkFailure });
    renderRoute(<BarrierHistoryRoute />, { path: '/barrier-history', state });
    expect(await screen.findByRole('alert')).toHaveTextContent('Ошибка сети.');
  });
});
