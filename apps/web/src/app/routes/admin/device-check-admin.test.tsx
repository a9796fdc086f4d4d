import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deviceHealth } from '../../../test/admin-fixtures';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { DeviceCheckAdminRoute } from './device-check-admin';

const state = { barrier_id: 5 };

const baseCheck = {
  id: 3,
  full: false,
  automatic: false,
  created_at: '2026-01-11T10:00:00Z',
  finished_at: null,
  queries_total: 2,
  queries_answered: 1,
  failure: null,
  slots_read: 10,
  differences: [],
  repair_sms: 0,
  repair_numbers_sms: 0,
  repair_clock_sms: 0,
};

const ready = {
  ...baseCheck,
  status: 'ready',
  queries_answered: 2,
  finished_at: '2026-01-11T10:01:00Z',
  differences: [
    { slot: 1, device: null, expected: '+79001110001', action: 'write' },
    { slot: 5, device: '+79990000005', expected: null, action: 'remove' },
  ],
  repair_sms: 3,
  repair_numbers_sms: 2,
  repair_clock_sms: 1,
};

const profile = {
  model: 'RTU5025',
  profile: null,
  number_format: '0007',
  number_formats: [
    { value: '0007', label: '0007XXXXXXXXXX' },
    { value: '007', label: '007XXXXXXXXXX' },
  ],
  documented: {
    number_format: '0007',
    number_format_source: 'production',
    replies: { add: [{ template: '{slot}:{number}', source: 'production' }], delete: [] },
  },
};

/** «Проверить устройство» with no check yet and the given plan of the alarm layout. */
function openWithAlarmLayout(plan: Record<string, unknown>, queued: number) {
  signIn();
  const server = mockApi({
    'GET /api/admin/barriers/5/device-health/': deviceHealth,
    'GET /api/admin/barriers/5/device-check/': { check: null, audit_every_days: null },
    'GET /api/admin/barriers/5/device-profile/': profile,
    'GET /api/admin/barriers/5/device-check/alarm-layout/': {
      available: true,
      reason: null,
      rewrite: false,
      current_gateway_number: null,
      staying: [],
      first_resident_slot: 7,
      ...plan,
    },
    'POST /api/admin/barriers/5/device-check/alarm-layout/': { queued },
  });
  return { server, ...renderRoute(<DeviceCheckAdminRoute />, { path: '/device-check-admin', state }) };
}

describe('/device-check-admin', () => {
  it('shows the differences in Russian, and repairs after a confirmation', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/device-health/': deviceHealth,
      'GET /api/admin/barriers/5/device-check/': { check: ready, audit_every_days: null },
      'GET /api/admin/barriers/5/device-profile/': profile,
      'POST /api/admin/barriers/5/device-check/repair/': {
        check: { ...ready, status: 'repaired', repair_sms: 0, repair_numbers_sms: 0, repair_clock_sms: 0 },
        queued: 3,
      },
    });
    const { user } = renderRoute(<DeviceCheckAdminRoute />, { path: '/device-check-admin', state });
    expect(screen.getByRole('heading', { name: 'Проверка устройства' })).toBeInTheDocument();
    expect(await screen.findByTestId('device-check-status')).toHaveTextContent('Проверка завершена.');
    const rows = within(screen.getByTestId('device-check-differences')).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('1пусто+7 (900) 111-00-01записать');
    expect(rows[2]).toHaveTextContent('5+7 (999) 000-00-05пустоудалить');
    // The cost per kind, as the server counted it (issue 32 item 5).
    const cost = screen.getByTestId('device-check-repair-cost');
    expect(within(cost).getByText('Исправление: 3 СМС.')).toBeInTheDocument();
    expect(within(cost).getByText('Номера: 2 СМС (сначала удаления).')).toBeInTheDocument();
    expect(within(cost).getByText('Часы и настройки: 1 СМС.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Исправить' }));
    expect(screen.getByText('Отправить на устройство 3 СМС?')).toBeInTheDocument();
    expect(server.callsTo('POST /api/admin/barriers/5/device-check/repair/')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Да, исправить' }));
    expect(await screen.findByText('Исправление отправлено на устройство.')).toBeInTheDocument();
    expect(server.callsTo('POST /api/admin/barriers/5/device-check/repair/')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Исправить' })).not.toBeInTheDocument();
  });

  it('keeps a clock or setting fix apart from the numbers: «Номера … совпадают», then «Часы и настройки» (issue 32 item 5)', async () => {
    signIn();
    mockApi({
      'GET /api/admin/barriers/5/device-health/': deviceHealth,
      'GET /api/admin/barriers/5/device-check/': {
        check: { ...ready, differences: [], repair_sms: 1, repair_numbers_sms: 0, repair_clock_sms: 1 },
        audit_every_days: null,
      },
      'GET /api/admin/barriers/5/device-profile/': profile,
    });
    renderRoute(<DeviceCheckAdminRoute />, { path: '/device-check-admin', state });
    expect(await screen.findByText('Номера в устройстве совпадают с базой.')).toBeInTheDocument();
    expect(screen.getByText('Часы и настройки')).toBeInTheDocument();
    expect(screen.getByText('Часы или настройки устройства нужно обновить: 1 СМС.')).toBeInTheDocument();
    expect(screen.queryByText(/сначала удаления/)).not.toBeInTheDocument();
  });

  it('says which slots a check read and does not claim the unit matches beyond them (issue 41)', async () => {
    signIn();
    const check = { ...ready, differences: [], repair_sms: 0, repair_numbers_sms: 0, repair_clock_sms: 0 };
    mockApi({
      'GET /api/admin/barriers/5/device-health/': deviceHealth,
      'GET /api/admin/barriers/5/device-check/': {
        check: { ...check, slots_read_to: 20, slot_count: 999 },
        audit_every_days: null,
      },
      'GET /api/admin/barriers/5/device-profile/': profile,
    });
    const { unmount } = renderRoute(<DeviceCheckAdminRoute />, { path: '/device-check-admin', state });
    expect(await screen.findByText('Ячейки 1–20 совпадают с базой.')).toBeInTheDocument();
    expect(screen.getByTestId('device-check-not-read')).toHaveTextContent(
      'Ячейки 21–999 не читались: номер, записанный туда вручную, эта проверка не видит.',
    );
    expect(screen.queryByText('Номера в устройстве совпадают с базой.')).not.toBeInTheDocument();
    unmount();

    // A full check read every slot: the whole unit matches.
    mockApi({
      'GET /api/admin/barriers/5/device-health/': deviceHealth,
      'GET /api/admin/barriers/5/device-check/': {
        check: { ...check, full: true, slots_read_to: 999, slot_count: 999 },
        audit_every_days: null,
      },
      'GET /api/admin/barriers/5/device-profile/': profile,
    });
    renderRoute(<DeviceCheckAdminRoute />, { path: '/device-check-admin', state });
    expect(await screen.findByText('Номера в устройстве совпадают с базой.')).toBeInTheDocument();
    expect(screen.queryByTestId('device-check-not-read')).not.toBeInTheDocument();
  });

  it('offers to rewrite slot 1 when the gateway number changed, with the exact SMS count (issue 32 item 6)', async () => {
    const { server, user } = openWithAlarmLayout(
      {
        rewrite: true,
        gateway_number: '+79990000002',
        current_gateway_number: '+79990000001',
        moves: [],
        sms: 1,
      },
      1,
    );
    const panel = await screen.findByTestId('alarm-layout');
    expect(panel).toHaveTextContent(
      'Номер шлюза изменился: в ячейке 1 устройства записан +7 (999) 000-00-01, а сервер теперь получает СМС на +7 (999) 000-00-02.',
    );
    expect(panel).not.toHaveTextContent('Перенести жителей');
    expect(within(panel).getByTestId('alarm-layout-sms')).toHaveTextContent('СМС для перезаписи ячейки 1: 1');
    await user.click(within(panel).getByRole('button', { name: 'Перезаписать ячейку 1' }));
    expect(server.callsTo('POST /api/admin/barriers/5/device-check/alarm-layout/')).toHaveLength(0);
    await user.click(within(panel).getByRole('button', { name: 'Подтвердить перезапись' }));
    expect(await screen.findByText('Новый номер шлюза отправлен на устройство, СМС: 1.')).toBeInTheDocument();
    expect(server.callsTo('POST /api/admin/barriers/5/device-check/alarm-layout/')[0]?.body).toEqual({
      expected_sms: 1,
    });
  });

  it('offers to clear slot 1 when the deployment has no gateway number any more, with the exact SMS count', async () => {
    const { server, user } = openWithAlarmLayout(
      { rewrite: true, gateway_number: null, current_gateway_number: '+79990000001', moves: [], sms: 1 },
      1,
    );
    const panel = await screen.findByTestId('alarm-layout');
    expect(panel).toHaveTextContent(
      'Номер шлюза больше не задан на сервере, а в ячейке 1 устройства остался +7 (999) 000-00-01. Этот номер по-прежнему открывает шлагбаум — удалите его из устройства.',
    );
    expect(panel).not.toHaveTextContent('Перенести жителей');
    expect(within(panel).getByTestId('alarm-layout-sms')).toHaveTextContent('СМС для очистки ячейки 1: 1');
    await user.click(within(panel).getByRole('button', { name: 'Удалить номер из ячейки 1' }));
    expect(server.callsTo('POST /api/admin/barriers/5/device-check/alarm-layout/')).toHaveLength(0);
    await user.click(within(panel).getByRole('button', { name: 'Подтвердить удаление' }));
    expect(
      await screen.findByText('Удаление номера шлюза отправлено на устройство, СМС: 1.'),
    ).toBeInTheDocument();
    expect(server.callsTo('POST /api/admin/barriers/5/device-check/alarm-layout/')[0]?.body).toEqual({
      expected_sms: 1,
    });
  });

  it('offers the gateway into slot 1 with the exact SMS count, and moves after a confirmation (issue 30 item 5)', async () => {
    const { server, user } = openWithAlarmLayout(
      {
        gateway_number: '+79990000001',
        moves: [
          { from: 1, to: 7 },
          { from: 2, to: 8 },
        ],
        sms: 4,
      },
      4,
    );
    const panel = await screen.findByTestId('alarm-layout');
    expect(panel).toHaveTextContent('Номер шлюза в ячейку 1: +7 (999) 000-00-01');
    expect(panel).toHaveTextContent('Перенести жителей из ячеек 1–6: 2 (ячейка 1 → 7, ячейка 2 → 8)');
    expect(within(panel).getByTestId('alarm-layout-sms')).toHaveTextContent('СМС для переноса: 4');
    await user.click(within(panel).getByRole('button', { name: 'Перенести' }));
    expect(server.callsTo('POST /api/admin/barriers/5/device-check/alarm-layout/')).toHaveLength(0);
    server.on({
      'GET /api/admin/barriers/5/device-check/alarm-layout/': {
        available: false,
        reason: 'alarm_layout_done',
        gateway_number: '+79990000001',
        moves: [],
        staying: [],
        first_resident_slot: 7,
        sms: 0,
      },
    });
    await user.click(within(panel).getByRole('button', { name: 'Подтвердить перенос' }));
    expect(await screen.findByText('Номер шлюза записан в ячейку 1.')).toBeInTheDocument();
    expect(server.callsTo('POST /api/admin/barriers/5/device-check/alarm-layout/')[0]?.body).toEqual({
      expected_sms: 4,
    });
  });

  it('starts a check, follows its progress, and says why one failed', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/device-health/': deviceHealth,
      'GET /api/admin/barriers/5/device-check/': { check: null, audit_every_days: null },
      'GET /api/admin/barriers/5/device-profile/': profile,
      'POST /api/admin/barriers/5/device-check/': [
        201,
        { check: { ...baseCheck, status: 'reading' }, audit_every_days: null },
      ],
    });
    const { user } = renderRoute(<DeviceCheckAdminRoute />, { path: '/device-check-admin', state });
    expect(await screen.findByText('Устройство ещё не проверялось.')).toBeInTheDocument();
    server.on({
      'GET /api/admin/barriers/5/device-check/': {
        check: { ...baseCheck, status: 'failed', failure: 'refused' },
        audit_every_days: null,
      },
    });
    await user.click(screen.getByRole('button', { name: 'Проверить устройство' }));
    expect(server.callsTo('POST /api/admin/barriers/5/device-check/')[0]?.body).toEqual({ full: false });
    expect(await screen.findByText('Идёт чтение: получено ответов 1 из 2.')).toBeInTheDocument();
    expect(await screen.findByText('Проверка не удалась: устройство не приняло пароль.')).toBeInTheDocument();

    server.on({
      'POST /api/admin/barriers/5/device-check/': [
        409,
        { detail: 'A check of this device is already reading it.' },
      ],
    });
    await user.click(screen.getByRole('button', { name: 'Проверить все ячейки' }));
    expect(await screen.findByText('Проверка устройства уже идёт.')).toBeInTheDocument();
    expect(server.callsTo('POST /api/admin/barriers/5/device-check/').at(-1)?.body).toEqual({ full: true });
  });

  it('saves the device profile and shows the server’s field errors', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/device-health/': deviceHealth,
      'GET /api/admin/barriers/5/device-check/': { check: null, audit_every_days: null },
      'GET /api/admin/barriers/5/device-profile/': profile,
      'PUT /api/admin/barriers/5/device-profile/': [
        400,
        { 'replies.add.0': ['Недопустимая подстановка: «пароль». Допустимы: «ячейка», «номер».'] },
      ],
    });
    const { user } = renderRoute(<DeviceCheckAdminRoute />, { path: '/device-check-admin', state });
    const add = await screen.findByRole('textbox', {
      name: /Дополнительные ответы устройства: запись номера/,
    });
    await user.type(add, '{{pwd} ok');
    await user.click(screen.getByRole('button', { name: 'Сохранить профиль' }));
    expect(
      await screen.findByText('Недопустимая подстановка: «пароль». Допустимы: «ячейка», «номер».'),
    ).toBeInTheDocument();
    expect(server.callsTo('PUT /api/admin/barriers/5/device-profile/')[0]?.body).toEqual({
      replies: { add: ['{pwd} ok'] },
    });

    server.on({
      'PUT /api/admin/barriers/5/device-profile/': {
        ...profile,
        profile: { number_format: '007' },
        number_format: '007',
      },
    });
    await user.clear(add);
    await user.click(screen.getByRole('textbox', { name: 'Формат номера в командах' }));
    await user.click(await screen.findByRole('option', { name: '007XXXXXXXXXX' }));
    await user.click(screen.getByRole('button', { name: 'Сохранить профиль' }));
    expect(await screen.findByText('Профиль устройства сохранён.')).toBeInTheDocument();
    await waitFor(() =>
      expect(server.callsTo('PUT /api/admin/barriers/5/device-profile/').at(-1)?.body).toEqual({
        number_format: '007',
      }),
    );
  });

  it('turns the periodic audit on, and marks a check the server started by itself', async () => {
    signIn();
    const server = mockApi({
      'GET /api/admin/barriers/5/device-health/': deviceHealth,
      'GET /api/admin/barriers/5/device-check/': {
        check: { ...ready, status: 'repaired', automatic: true, repair_sms: 0 },
        audit_every_days: null,
      },
      'GET /api/admin/barriers/5/device-profile/': profile,
      'PUT /api/admin/barriers/5/device-check/audit/': { audit_every_days: 7 },
    });
    const { user } = renderRoute(<DeviceCheckAdminRoute />, { path: '/device-check-admin', state });
    expect(await screen.findByText('Проверка запущена автоматически.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Автоматическая проверка' })).toHaveValue('Выключена');
    await user.click(screen.getByRole('textbox', { name: 'Автоматическая проверка' }));
    await user.click(await screen.findByRole('option', { name: 'Раз в неделю' }));
    expect(await screen.findByText('Автоматическая проверка сохранена.')).toBeInTheDocument();
    expect(server.callsTo('PUT /api/admin/barriers/5/device-check/audit/')[0]?.body).toEqual({
      every_days: 7,
    });
    expect(screen.getByRole('textbox', { name: 'Автоматическая проверка' })).toHaveValue('Раз в неделю');
  });

  it('declares «устройство сброшено к заводским настройкам» only after a confirmation that names what follows', async () => {
    signIn();
    const reading = { ...baseCheck, status: 'reading', automatic: true, queries_answered: 0, slots_read: 0 };
    const server = mockApi({
      'GET /api/admin/barriers/5/device-health/': deviceHealth,
      'GET /api/admin/barriers/5/device-check/': { check: ready, audit_every_days: null },
      'GET /api/admin/barriers/5/device-profile/': profile,
      'POST /api/admin/barriers/5/device-check/factory-reset/': { password_command_id: 40, check: reading },
    });
    const { user } = renderRoute(<DeviceCheckAdminRoute />, { path: '/device-check-admin', state });
    await user.click(
      await screen.findByRole('button', { name: 'Устройство сброшено к заводским настройкам' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('заводским паролем (у RTU5025 — 1234)');
    expect(dialog).toHaveTextContent('прочитает номера и исправит расхождения');
    expect(server.callsTo('POST /api/admin/barriers/5/device-check/factory-reset/')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(server.callsTo('POST /api/admin/barriers/5/device-check/factory-reset/')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Устройство сброшено к заводским настройкам' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Да, устройство сброшено' }),
    );
    expect(
      await screen.findByText('Пароль возвращается в устройство, номера читаются — ход проверки ниже.'),
    ).toBeInTheDocument();
    expect(server.callsTo('POST /api/admin/barriers/5/device-check/factory-reset/')).toHaveLength(1);
  });

  it('says in Russian when the model’s factory password is not known', async () => {
    signIn();
    mockApi({
      'GET /api/admin/barriers/5/device-health/': deviceHealth,
      'GET /api/admin/barriers/5/device-check/': { check: null, audit_every_days: null },
      'GET /api/admin/barriers/5/device-profile/': profile,
      'POST /api/admin/barriers/5/device-check/factory-reset/': [
        400,
        {
          detail: "No source gives this device model's factory password.",
          code: 'device_factory_password_unknown',
        },
      ],
    });
    const { user } = renderRoute(<DeviceCheckAdminRoute />, { path: '/device-check-admin', state });
    await user.click(
      await screen.findByRole('button', { name: 'Устройство сброшено к заводским настройкам' }),
    );
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Да, устройство сброшено' }),
    );
    expect(await screen.findByText(/Заводской пароль этой модели устройства неизвестен/)).toBeInTheDocument();
  });

  it('offers the declaration only where a source gives the factory password, and none for a model without a password', async () => {
    signIn();
    const open = (model: string) =>
      mockApi({
        'GET /api/admin/barriers/5/device-health/': deviceHealth,
        'GET /api/admin/barriers/5/device-check/': { check: null, audit_every_days: null },
        'GET /api/admin/barriers/5/device-profile/': { ...profile, model },
      });
    open('TELL-GC20');
    const tell = renderRoute(<DeviceCheckAdminRoute />, { path: '/device-check-admin', state });
    expect(await screen.findByText(/Заводской пароль этой модели неизвестен/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Устройство сброшено к заводским настройкам' })).toBeNull();
    tell.unmount();

    open('Telemetrica');
    renderRoute(<DeviceCheckAdminRoute />, { path: '/device-check-admin', state });
    expect(await screen.findByTestId('device-profile')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('factory-reset')).toBeNull());
    expect(screen.queryByText('Сброс устройства')).toBeNull();
  });
});
