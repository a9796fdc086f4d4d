import { getSettings } from '@propusk/devices/settings';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { keepDrafts } from '../../../lib/form-drafts';
import { barrier } from '../../../test/admin-fixtures';
import { mockApi, networkFailure } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { BarrierSettingsRoute } from './barrier-settings';

const sheet = getSettings('RTU5025');
const settings = {
  settings: { query_range: sheet.query_range, relay_time: sheet.relay_time, all: sheet.access_all },
};
const routes = {
  'GET /api/admin/barriers/5/': barrier,
  'GET /api/admin/barriers/5/settings/': settings,
};

describe('/barrier-settings', () => {
  it('comes back after an ended session with the chosen setting and what was typed (issue 41)', async () => {
    signIn();
    mockApi(routes);
    const first = renderRoute(<BarrierSettingsRoute />, {
      path: '/barrier-settings',
      state: { barrier_id: 5 },
    });
    await first.user.click(await screen.findByRole('textbox', { name: 'Настройка' }));
    await first.user.click(await screen.findByRole('option', { name: 'Запрос диапазона ячеек' }));
    await first.user.type(screen.getByRole('textbox', { name: 'Первая ячейка' }), '001');
    // What the router does when the session ends (router.tsx), then the screen is gone.
    keepDrafts('+79001234567');
    first.unmount();

    renderRoute(<BarrierSettingsRoute />, { path: '/barrier-settings', state: { barrier_id: 5 } });
    expect(await screen.findByRole('textbox', { name: 'Первая ячейка' })).toHaveValue('001');
    expect(screen.getByRole('textbox', { name: 'Настройка' })).toHaveValue('Запрос диапазона ячеек');
  });

  it('names the barrier and previews the SMS as the device gets it, password masked', async () => {
    signIn();
    const server = mockApi({
      ...routes,
      'POST /api/admin/barriers/5/settings/': { detail: 'Setting queued.', command_id: 1 },
      'GET /api/admin/barriers/5/settings/commands/1/': {
        command_id: 1,
        setting: 'query_range',
        state: 'sent',
        failure: null,
      },
    });
    const { user } = renderRoute(<BarrierSettingsRoute />, {
      path: '/barrier-settings',
      state: { barrier_id: 5 },
    });
    expect(await screen.findByTestId('barrier-address')).toHaveTextContent('г Москва, ул Тверская, д 7');
    expect(screen.getByText('Телефон устройства: +79005550001')).toBeInTheDocument();
    await user.click(await screen.findByRole('textbox', { name: 'Настройка' }));
    await user.click(await screen.findByRole('option', { name: 'Запрос диапазона ячеек' }));
    // No placeholder of the command on the screen: a Russian line until every field is filled (issue 32 item 5).
    expect(screen.getByTestId('command-preview-pending')).toHaveTextContent(
      'Команда: появится, когда будут заполнены все поля.',
    );
    expect(screen.queryByTestId('command-preview')).not.toBeInTheDocument();
    const from = screen.getByRole('textbox', { name: 'Первая ячейка' });
    expect(from).toHaveAttribute('placeholder', 'Номер ячейки, три цифры: от 001 до 999');
    await user.type(from, '001');
    expect(screen.queryByTestId('command-preview')).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Последняя ячейка' }), '010');
    expect(screen.getByTestId('command-preview')).toHaveTextContent(/^\*\*\*\*AL001#010#$/);
    // The SMS text only under its label.
    expect(screen.getByTestId('command-preview').closest('[data-device-text]')).toHaveTextContent(
      /^Команда: \*\*\*\*AL001#010#$/,
    );
    await user.click(screen.getByRole('button', { name: 'Отправить' }));
    // The spec's words (issue 41 item 1), and on their own line: queued is not done until the device answers.
    expect(
      await screen.findByText('Настройка «Запрос диапазона ячеек» успешно отправлена.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Ждём ответа устройства: настройка ещё не подтверждена.')).toBeInTheDocument();
    expect(screen.queryByText(/подтверждено устройством/)).not.toBeInTheDocument();
    expect(server.callsTo('POST /api/admin/barriers/5/settings/')[0]?.body).toEqual({
      setting: 'query_range',
      params: { from: '001', to: '010' },
    });
    server.on({
      'GET /api/admin/barriers/5/settings/commands/1/': {
        command_id: 1,
        setting: 'query_range',
        state: 'confirmed',
        failure: null,
      },
    });
    expect(
      await screen.findByText('Настройка «Запрос диапазона ячеек»: подтверждено устройством.'),
    ).toBeInTheDocument();
  });

  it('shows a wrong value as typed, a value normalised as sent, and a failure from the device', async () => {
    signIn();
    mockApi({
      ...routes,
      'POST /api/admin/barriers/5/settings/': { detail: 'Setting queued.', command_id: 2 },
      'GET /api/admin/barriers/5/settings/commands/2/': {
        command_id: 2,
        setting: 'relay_time',
        state: 'failed',
        failure: 'wrong_password',
      },
    });
    const { user } = renderRoute(<BarrierSettingsRoute />, {
      path: '/barrier-settings',
      state: { barrier_id: 5 },
    });
    await user.click(await screen.findByRole('textbox', { name: 'Настройка' }));
    await user.click(await screen.findByRole('option', { name: 'Время открытия' }));
    const seconds = screen.getByRole('textbox', { name: 'Секунды' });
    await user.type(seconds, '5x');
    expect(screen.getByTestId('command-preview')).toHaveTextContent('****GOT5x#');
    await user.clear(seconds);
    await user.type(seconds, '50');
    expect(screen.getByTestId('command-preview')).toHaveTextContent('****GOT050#');
    await user.click(screen.getByRole('button', { name: 'Отправить' }));
    expect(
      await screen.findByText('Настройка «Время открытия» не выполнена: устройство не приняло пароль.'),
    ).toBeInTheDocument();
  });

  it('shows the server detail, the fallback and the network failure of a send', async () => {
    signIn();
    const server = mockApi({
      ...routes,
      'POST /api/admin/barriers/5/settings/': [
        409,
        { detail: 'The weekly SMS limit of this barrier would be exceeded.', code: 'sms_weekly_limit' },
      ],
    });
    const { user } = renderRoute(<BarrierSettingsRoute />, {
      path: '/barrier-settings',
      state: { barrier_id: 5 },
    });
    await user.click(await screen.findByRole('textbox', { name: 'Настройка' }));
    await user.click(await screen.findByRole('option', { name: 'Доступ для всех' }));
    await user.click(screen.getByRole('button', { name: 'Отправить' }));
    expect(
      await screen.findByText('Будет превышен недельный лимит СМС этого шлагбаума.'),
    ).toBeInTheDocument();
    server.on({ 'POST /api/admin/barriers/5/settings/': [500, {}] });
    await user.click(screen.getByRole('button', { name: 'Отправить' }));
    expect(await screen.findByText('Ошибка при отправке настройки.')).toBeInTheDocument();
    server.on({ 'POST /api/admin/barriers/5/settings/': networkFailure });
    await user.click(screen.getByRole('button', { name: 'Отправить' }));
    expect(await screen.findByText('Ошибка сети при отправке настройки.')).toBeInTheDocument();
  });

  it('disables a relay setting of a barrier whose command dialect is not known, and says why', async () => {
    signIn();
    const rtu5024 = getSettings('RTU5024');
    const server = mockApi({
      'GET /api/admin/barriers/5/': { ...barrier, device_model: 'RTU5024' },
      'GET /api/admin/barriers/5/settings/': {
        settings: { relay_time: rtu5024.relay_time, all: rtu5024.access_all },
        unavailable: { relay_time: { code: 'relay_dialect_unknown' } },
      },
    });
    const { user } = renderRoute(<BarrierSettingsRoute />, {
      path: '/barrier-settings',
      state: { barrier_id: 5 },
    });
    await user.click(await screen.findByRole('textbox', { name: 'Настройка' }));
    await user.click(await screen.findByRole('option', { name: 'Время открытия' }));
    const send = screen.getByRole('button', { name: 'Отправить' });
    expect(send).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Секунды' })).toBeDisabled();
    const reason = screen.getByTestId('setting-unavailable-reason');
    expect(reason).toHaveTextContent('то же значение на другой прошивке может оставить шлагбаум открытым');
    expect(reason).toHaveTextContent('«Проверить устройство»');
    expect(send).toHaveAttribute('aria-describedby', reason.id);
    await user.click(send);
    expect(server.callsTo('POST /api/admin/barriers/5/settings/')).toHaveLength(0);

    // A setting that does not drive the relay stays available, without the reason.
    await user.click(screen.getByRole('textbox', { name: 'Настройка' }));
    await user.click(await screen.findByRole('option', { name: 'Доступ для всех' }));
    expect(screen.getByRole('button', { name: 'Отправить' })).toBeEnabled();
    expect(screen.queryByTestId('setting-unavailable-reason')).not.toBeInTheDocument();
  });

  it('says when the settings cannot be loaded', async () => {
    signIn();
    mockApi({ 'GET /api/admin/barriers/5/': barrier, 'GET /api/admin/barriers/5/settings/': [500, {}] });
    renderRoute(<BarrierSettingsRoute />, { path: '/barrier-settings', state: { barrier_id: 5 } });
    expect(await screen.findByText('Ошибка при загрузке настроек')).toBeInTheDocument();
  });
});

describe('/barrier-settings: forms no source shows for the model (issue 30)', () => {
  it('marks a Telemetrica setting «не проверено на устройстве»', async () => {
    signIn();
    const telemetrica = getSettings('Telemetrica');
    mockApi({
      'GET /api/admin/barriers/5/': { ...barrier, device_model: 'Telemetrica' },
      'GET /api/admin/barriers/5/settings/': { settings: { query_list: telemetrica.query_list } },
    });
    const { user } = renderRoute(<BarrierSettingsRoute />, {
      path: '/barrier-settings',
      state: { barrier_id: 5 },
    });
    await user.click(await screen.findByRole('textbox', { name: 'Настройка' }));
    await user.click(await screen.findByRole('option', { name: 'Список номеров' }));
    expect(await screen.findByTestId('setting-unverified')).toHaveTextContent('Не проверено на устройстве');
  });

  it('asks before a relay time of 999, naming the consequence; «Отмена» sends nothing (issue 32 item 3)', async () => {
    signIn();
    const server = mockApi({
      ...routes,
      'POST /api/admin/barriers/5/settings/': { detail: 'Setting queued.', command_id: 3 },
      'GET /api/admin/barriers/5/settings/commands/3/': {
        command_id: 3,
        setting: 'relay_time',
        state: 'sent',
        failure: null,
      },
    });
    const { user } = renderRoute(<BarrierSettingsRoute />, {
      path: '/barrier-settings',
      state: { barrier_id: 5 },
    });
    await user.click(await screen.findByRole('textbox', { name: 'Настройка' }));
    await user.click(await screen.findByRole('option', { name: 'Время открытия' }));
    await user.type(screen.getByRole('textbox', { name: 'Секунды' }), '999');
    await user.click(screen.getByRole('button', { name: 'Отправить' }));
    const question = await screen.findByRole('dialog');
    expect(question).toHaveTextContent(
      'При времени 999 реле не выключается: шлагбаум будет стоять открытым до следующего звонка. Отправить?',
    );
    await user.click(within(question).getByRole('button', { name: 'Отмена' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.callsTo('POST /api/admin/barriers/5/settings/')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Отправить' }));
    await user.click(await screen.findByRole('button', { name: 'Да, оставить открытым' }));
    expect(await screen.findByText('Настройка «Время открытия» успешно отправлена.')).toBeInTheDocument();
    expect(server.callsTo('POST /api/admin/barriers/5/settings/').map((call) => call.body)).toEqual([
      { setting: 'relay_time', params: { seconds: '999' } },
    ]);
  });

  it('offline: «Отправить» says «Нет связи» at once and nothing goes out when the network returns (issue 32 item 1)', async () => {
    signIn();
    const server = mockApi(routes);
    const { user } = renderRoute(<BarrierSettingsRoute />, {
      path: '/barrier-settings',
      state: { barrier_id: 5 },
    });
    const setOnline = (online: boolean) => {
      Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
      window.dispatchEvent(new Event(online ? 'online' : 'offline'));
    };
    await user.click(await screen.findByRole('textbox', { name: 'Настройка' }));
    await user.click(await screen.findByRole('option', { name: 'Время открытия' }));
    await user.type(screen.getByRole('textbox', { name: 'Секунды' }), '50');
    try {
      act(() => setOnline(false));
      const send = screen.getByRole('button', { name: 'Нет связи' });
      expect(send).toBeDisabled();
      expect(screen.getByRole('status')).toHaveTextContent(
        'Нет связи: ничего не отправлено. Отправьте, когда связь вернётся.',
      );
      fireEvent.click(send);
      act(() => setOnline(true));
      expect(await screen.findByRole('button', { name: 'Отправить' })).toBeEnabled();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(server.callsTo('POST /api/admin/barriers/5/settings/')).toHaveLength(0);
    } finally {
      setOnline(true);
    }
  });
});
