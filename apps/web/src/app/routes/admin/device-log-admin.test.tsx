import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { DeviceLogAdminRoute } from './device-log-admin';
import { deviceHealth, page } from './test-data';

const state = { barrier_id: 5 };

const sent = {
  id: 11,
  created_at: '2026-01-11T10:00:00Z',
  direction: 'out',
  text: '****A001#79002223344#',
  outcome: 'sent',
  command_id: 3,
  command_kind: 'add',
  provider_id: 'gw-17',
};
const confirmed = {
  ...sent,
  id: 12,
  direction: 'in',
  text: 'Serial:001 Number:79002223344 Set Success!',
  outcome: 'confirmed',
  provider_id: null,
};
const unrecognised = {
  ...sent,
  id: 13,
  direction: 'in',
  text: 'GSM signal: 17',
  outcome: 'unrecognised',
  command_id: null,
  command_kind: null,
  provider_id: null,
};

const logPage = (messages: unknown[], total = messages.length, current = 1) => ({
  ...page('messages', messages, total, current, 20),
  unrecognised_count: 1,
});

describe('/device-log-admin', () => {
  it('lists the conversation newest first in Russian, filters by outcome and pages', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/device-health/': deviceHealth,
      'GET /api/admin/barriers/5/device-log/': ({ query }) =>
        query.get('outcome') === 'unrecognised'
          ? logPage([unrecognised])
          : query.get('page') === '2'
            ? logPage([sent], 21, 2)
            : logPage([unrecognised, confirmed], 21),
    });
    const { user } = renderRoute(<DeviceLogAdminRoute />, { path: '/device-log-admin', state });
    expect(screen.getByRole('heading', { name: 'Журнал устройства' })).toBeInTheDocument();
    const cards = await screen.findAllByTestId('device-message');
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent('Получено от устройства');
    expect(cards[0]).toHaveTextContent('GSM signal: 17');
    expect(cards[0]).toHaveTextContent('не распознано');
    expect(cards[1]).toHaveTextContent('подтверждено');
    expect(cards[1]).toHaveTextContent('Команда: добавление номера');
    // No internal id (issue 32 item 5); the SMS text and the unit's answer each under their label.
    expect(cards[1]).not.toHaveTextContent('#3');
    expect(
      within(cards[0] as HTMLElement)
        .getByText('GSM signal: 17')
        .closest('[data-device-text]'),
    ).toHaveTextContent(/^Ответ устройства: GSM signal: 17$/);
    expect(screen.getByTestId('unrecognised-count')).toHaveTextContent('Нераспознанных ответов: 1');
    const first = server.callsTo('GET /api/admin/barriers/5/device-log/')[0];
    expect(first?.query.get('page_size')).toBe('20');
    expect(first?.query.has('outcome')).toBe(false);
    expect(screen.getByTestId('pager-position')).toHaveTextContent('1 / 2');

    await user.click(screen.getByRole('button', { name: 'Вперёд' }));
    const second = await screen.findByText('****A001#79002223344#');
    expect(second.closest('[data-device-text]')).toHaveTextContent(/^Текст СМС: \*\*\*\*A001#79002223344#$/);
    const sentCard = second.closest('[data-testid="device-message"]') as HTMLElement;
    expect(within(sentCard).getByText('Отправлено устройству')).toBeInTheDocument();
    expect(within(sentCard).getByText('отправлено')).toBeInTheDocument();
    expect(within(sentCard).getByText(/^Номер сообщения в шлюзе/)).toHaveTextContent(
      'Номер сообщения в шлюзе: gw-17',
    );

    await user.click(screen.getByRole('textbox', { name: 'Результат' }));
    expect(await screen.findByRole('option', { name: 'Все сообщения' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'шлюз не принял' })).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'не распознано' }));
    await waitFor(() =>
      expect(server.callsTo('GET /api/admin/barriers/5/device-log/').at(-1)?.query.get('outcome')).toBe(
        'unrecognised',
      ),
    );
    expect(server.callsTo('GET /api/admin/barriers/5/device-log/').at(-1)?.query.get('page')).toBe('1');
    await waitFor(() => expect(screen.getAllByTestId('device-message')).toHaveLength(1));
    expect(screen.getByTestId('pager-position')).toHaveTextContent('1 / 1');
  });

  it('shows an administrator’s SMS on power loss, sent or not and why', async () => {
    signIn();
    const notice = {
      ...sent,
      id: 14,
      direction: 'notice',
      text: 'Пропало питание шлагбаума: г Москва, ул Тверская, д 7',
      command_id: null,
      command_kind: null,
      provider_id: null,
    };
    mockApi({
      'GET /api/admin/barriers/5/device-health/': deviceHealth,
      'GET /api/admin/barriers/5/device-log/': logPage([
        { ...notice, id: 15, outcome: 'notice_over_limit' },
        { ...notice, outcome: 'notice_sent' },
      ]),
    });
    renderRoute(<DeviceLogAdminRoute />, { path: '/device-log-admin', state });
    const cards = await screen.findAllByTestId('device-message');
    expect(cards[0]).toHaveTextContent('СМС администратору');
    expect(cards[0]).toHaveTextContent('не отправлено: недельный лимит СМС израсходован');
    expect(cards[1]).toHaveTextContent('СМС отправлено');
    expect(
      within(cards[1] as HTMLElement)
        .getByText(notice.text)
        .closest('[data-device-text]'),
    ).toHaveTextContent(`Текст СМС: ${notice.text}`);
  });

  it('says when the log is empty, and when it cannot be read', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/device-health/': deviceHealth,
      'GET /api/admin/barriers/5/device-log/': { ...page('messages', [], 0, 1, 20), unrecognised_count: 0 },
    });
    renderRoute(<DeviceLogAdminRoute />, { path: '/device-log-admin', state });
    // The spec's words first, on a line of their own; what to do next after them (issue 41 item 1).
    expect(
      (
        await screen.findByText(
          'Сообщений нет. Они появятся, когда сервер отправит устройству команду; с фильтром выберите «Все сообщения».',
        )
      ).previousElementSibling,
    ).toHaveTextContent(/^Нет данных$/);
    server.on({ 'GET /api/admin/barriers/5/device-log/': [500, {}] });
    renderRoute(<DeviceLogAdminRoute />, { path: '/device-log-admin', state });
    expect(await screen.findByText('Не удалось загрузить журнал устройства.')).toBeInTheDocument();
  });
});
