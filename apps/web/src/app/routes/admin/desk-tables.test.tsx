/**
 * The administrator's screens on a desk (from 1024 px, components/layout/desk.ts): the side navigation instead
 * of the bottom bar, and tables whose headers sort and whose filters ask the API with its own parameters.
 */

import { DEVICE_LOG_TEXTS } from '@propusk/contracts/texts/device-log';
import { RELAY_TEXTS } from '@propusk/contracts/texts/relay';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DESK_MEDIA_QUERY } from '../../../components/layout/desk';
import { barrier, barrierUser, deviceHealth, page } from '../../../test/admin-fixtures';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { AdminBarriersRoute } from './admin-barriers';
import { BarrierHistoryAdminRoute } from './barrier-history-admin';
import { BarrierUsersRoute } from './barrier-users';
import { DeviceLogAdminRoute } from './device-log-admin';
import { OpeningsAdminRoute } from './openings-admin';

const phoneMatchMedia = window.matchMedia;

/** A window 1280 px wide: only the desk's query matches. */
function atDesk() {
  window.matchMedia = ((query: string) => ({
    ...phoneMatchMedia(query),
    matches: query === DESK_MEDIA_QUERY,
  })) as typeof window.matchMedia;
}

const state = { barrier_id: 5 };

/** The query parameter of the calls to `route`, in order. */
function sent(server: ReturnType<typeof mockApi>, route: string, parameter: string) {
  return server.callsTo(route).map((call) => call.query.get(parameter));
}

describe('the administrator at a desk', () => {
  beforeEach(atDesk);
  afterEach(() => {
    window.matchMedia = phoneMatchMedia;
  });

  it('/admin-barriers: a side navigation, a table sorted by its headers, a search by address', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/my/': ({ query }) =>
        query.get('address') === 'Мира'
          ? page('barriers', [])
          : page('barriers', [
              { ...barrier, id: 1, address: 'ул Ленина, д 1' },
              {
                ...barrier,
                id: 2,
                address: 'ул Ленина, д 2',
                device_state: 'not_responding',
                my_role: 'operator',
              },
            ]),
    });
    const { user } = renderRoute(<AdminBarriersRoute />, { path: '/admin-barriers' });
    const table = await screen.findByRole('table', { name: 'Мои шлагбаумы' });
    // One navigation, at the side: the bottom bar is not drawn.
    const navigation = screen.getByRole('navigation', { name: 'Основная навигация' });
    expect(within(navigation).getByRole('button', { name: 'Шлагбаумы' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(navigation).getByRole('button', { name: 'Заявки' })).toBeInTheDocument();
    expect(screen.getAllByRole('navigation')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /^Сортировка/ })).toBeNull();

    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Адрес ↕', 'Устройство', 'Доступ', 'Состояние', 'Роль', 'Создан ↕']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toHaveTextContent('Устройство не отвечает');
    expect(rows[1]).toHaveTextContent('Оператор');
    expect(rows[0]).toHaveTextContent('Владелец');

    const address = () => within(table).getByRole('columnheader', { name: /Адрес/ });
    await user.click(within(address()).getByRole('button'));
    await waitFor(() => expect(address()).toHaveAttribute('aria-sort', 'ascending'));
    await user.click(within(address()).getByRole('button'));
    await waitFor(() => expect(address()).toHaveAttribute('aria-sort', 'descending'));
    await user.click(within(table).getByRole('button', { name: /Создан/ }));
    await waitFor(() =>
      expect(sent(server, 'GET /api/admin/barriers/my/', 'ordering')).toEqual([
        null,
        'address',
        '-address',
        'created_at',
      ]),
    );
    expect(address()).toHaveAttribute('aria-sort', 'none');

    await user.type(screen.getByLabelText('Поиск по адресу'), 'Мира');
    expect(await within(table).findByText('Нет результатов')).toBeInTheDocument();
    const searched = server.callsTo('GET /api/admin/barriers/my/').at(-1);
    expect(searched?.query.get('address')).toBe('Мира');
    expect(searched?.query.get('page')).toBe('1');
    expect(searched?.query.get('ordering')).toBe('created_at');

    await user.clear(screen.getByLabelText('Поиск по адресу'));
    await user.click(await within(table).findByRole('button', { name: 'ул Ленина, д 2' }));
    expect(await screen.findByText('Screen: /admin-barrier-page')).toBeInTheDocument();
    expect(screen.getByTestId('navigation-state')).toHaveTextContent('"barrier_id":2');
  });

  it('/barrier-users: sorts by name, phone and date, searches, and opens a profile from a row', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/users/': page('users', [
        barrierUser,
        { ...barrierUser, id: 22, full_name: 'Иван Блокированный', phone: '+79005556677', is_active: false },
      ]),
    });
    const { user } = renderRoute(<BarrierUsersRoute />, { path: '/barrier-users', state });
    const table = await screen.findByRole('table', { name: 'Пользователи шлагбаума' });
    const blocked = within(table).getByRole('row', { name: /Иван Блокированный/ });
    expect(blocked).toHaveTextContent('+7 (900) 555-66-77');
    expect(within(blocked).getByTestId('barrier-user-blocked')).toHaveTextContent('Заблокирован');
    expect(within(table).getByRole('row', { name: /Пётр Жильцов/ })).toHaveTextContent('Активен');

    await user.click(within(table).getByRole('button', { name: /^Имя/ }));
    await user.click(within(table).getByRole('button', { name: /^Телефон/ }));
    await user.click(within(table).getByRole('button', { name: /^Телефон/ }));
    await user.click(within(table).getByRole('button', { name: /^Доступ с/ }));
    await waitFor(() =>
      expect(sent(server, 'GET /api/admin/barriers/5/users/', 'ordering')).toEqual([
        null,
        'full_name',
        'phone',
        '-phone',
        'created_at',
      ]),
    );
    await user.type(screen.getByLabelText('Поиск по имени или телефону'), 'Иван');
    await waitFor(() =>
      expect(server.callsTo('GET /api/admin/barriers/5/users/').at(-1)?.query.get('search')).toBe('Иван'),
    );
    expect(server.callsTo('GET /api/admin/barriers/5/users/').at(-1)?.query.get('ordering')).toBe(
      'created_at',
    );

    await user.click(within(blocked).getByRole('button', { name: 'Открыть профиль' }));
    expect(await screen.findByText('Screen: /user-profile')).toBeInTheDocument();
    expect(screen.getByTestId('navigation-state')).toHaveTextContent('{"user_id":22,"barrier_id":5}');
  });

  it('/barrier-history-admin: filters by type and date in one row, opens an action under its row', async () => {
    signIn();
    const action = {
      id: 41,
      action_type: 'delete_phone',
      created_at: '2026-01-11T10:00:00Z',
      author: 'admin',
      author_name: 'Ольга Петрова',
      reason: 'barrier_exit',
      phone: 32,
      phone_number: '+79003334455',
      setting_name: null,
      barrier: 5,
    };
    const server = mockApi({
      'GET /api/admin/barriers/5/actions/': page('actions', [action]),
      'GET /api/admin/actions/41/': { ...action, old_value: null, new_value: null },
      'GET /api/admin/phones/32/': { id: 32, phone: '+79003334455', type: 'permanent' },
    });
    const { user } = renderRoute(<BarrierHistoryAdminRoute />, { path: '/barrier-history-admin', state });
    const table = await screen.findByRole('table', { name: 'История изменений' });
    const row = within(table).getByTestId('action-card');
    expect(row).toHaveTextContent('Удаление номера');
    expect(row).toHaveTextContent('Номер: +7 (900) 333-44-55');
    expect(row).toHaveTextContent('Администратор: Ольга Петрова');

    await user.click(within(row).getByRole('button', { name: '#41' }));
    expect(await within(table).findByText('Причина: Выход из шлагбаума')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: '#41' })).toHaveAttribute('aria-expanded', 'true');

    await user.click(screen.getByRole('textbox', { name: 'Тип действия' }));
    await user.click(await screen.findByRole('option', { name: 'Настройка шлагбаума' }));
    await waitFor(() =>
      expect(sent(server, 'GET /api/admin/barriers/5/actions/', 'action_type').at(-1)).toBe(
        'barrier_setting',
      ),
    );
    await user.type(screen.getByLabelText('Создано с'), '2026-01-10T08:00');
    await waitFor(() =>
      expect(sent(server, 'GET /api/admin/barriers/5/actions/', 'created_from').at(-1)).toMatch(
        /^2026-01-10T08:00/,
      ),
    );
    expect(server.callsTo('GET /api/admin/barriers/5/actions/').at(-1)?.query.get('page')).toBe('1');
  });

  it('/device-log-admin: a table of the SMS, filtered by outcome', async () => {
    signIn();
    const message = {
      id: 11,
      created_at: '2026-01-11T10:00:00Z',
      direction: 'out',
      text: '****A001#79002223344#',
      outcome: 'sent',
      command_id: 3,
      command_kind: 'add',
      provider_id: null,
    };
    const server = mockApi({
      'GET /api/admin/barriers/5/device-health/': deviceHealth,
      'GET /api/admin/barriers/5/device-log/': ({ query }) => ({
        ...page('messages', query.get('outcome') === 'refused' ? [] : [message], undefined, 1, 20),
        unrecognised_count: 0,
      }),
    });
    const { user } = renderRoute(<DeviceLogAdminRoute />, { path: '/device-log-admin', state });
    const table = await screen.findByRole('table', { name: 'Журнал устройства' });
    const row = within(table).getByTestId('device-message');
    expect(row).toHaveTextContent('Отправлено устройству');
    expect(row).toHaveTextContent('Текст СМС: ****A001#79002223344#');
    expect(row).toHaveTextContent('добавление номера');
    await user.click(screen.getByRole('textbox', { name: 'Результат' }));
    await user.click(await screen.findByRole('option', { name: 'неверный пароль' }));
    await waitFor(() =>
      expect(sent(server, 'GET /api/admin/barriers/5/device-log/', 'outcome')).toEqual([null, 'refused']),
    );
    // The spec's 'Нет данных' on its own line, the next step on the next (components/text-lines.tsx).
    for (const line of DEVICE_LOG_TEXTS.empty.split('\n')) {
      expect(await within(table).findByText(line)).toBeInTheDocument();
    }
  });

  it('/openings-admin: a table of openings, filtered by status, phone and dates', async () => {
    signIn();
    const opening = {
      id: 7,
      barrier: 5,
      user: 21,
      user_name: 'Пётр Жильцов',
      user_phone: '+79002223344',
      via: 'app',
      requested_at: '2026-11-21T12:00:00+03:00',
      status: 'failed',
      failure: 'no_reply',
      confirmed_at: null,
    };
    const server = mockApi({ 'GET /api/admin/barriers/5/openings/': page('openings', [opening]) });
    const { user } = renderRoute(<OpeningsAdminRoute />, { path: '/openings-admin', state });
    const table = await screen.findByRole('table', { name: RELAY_TEXTS.openingsLog });
    const row = within(table).getByTestId('opening-card');
    expect(row).toHaveTextContent('Пётр Жильцов');
    expect(row).toHaveTextContent('+7 (900) 222-33-44');
    expect(row).toHaveTextContent('из приложения');
    expect(row).toHaveTextContent('Не открылось');
    expect(row).toHaveTextContent('устройство не ответило');
    await user.selectOptions(screen.getByLabelText('Статус'), 'failed');
    await user.type(screen.getByLabelText('Телефон'), '2233');
    await user.type(screen.getByLabelText('С'), '2026-11-01');
    await waitFor(() => {
      const last = server.callsTo('GET /api/admin/barriers/5/openings/').at(-1);
      expect(last?.query.get('status')).toBe('failed');
      expect(last?.query.get('phone')).toBe('2233');
      expect(last?.query.get('requested_from')).toMatch(/^2026-11-01T00:00/);
      expect(last?.query.get('page')).toBe('1');
    });
  });
});
