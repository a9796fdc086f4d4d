/**
 * Every word plain Russian on the device screens, rendered (issue 32 item 5): «Проверить устройство» (the
 * check, its differences and repair cost per kind, the device profile, the forms «не проверено на
 * устройстве»), the device log and «Настройки устройства» are rendered with the server's answers and walked
 * by the journeys' own collector and rule (e2e/support/latin-text.ts). Command syntax and the unit's English
 * replies pass only inside a labelled device text («Текст СМС», «Ответ устройства»); the same text bare fails.
 * The catalogues' walk is plain-russian.test.ts.
 */
import { Code, MantineProvider } from '@mantine/core';
import type { DeviceCheckDifference } from '@propusk/contracts/device-checks';
import { NUMBER_FORMAT_LABELS } from '@propusk/devices/numbers';
import { getSettings } from '@propusk/devices/settings';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { collectScreenTexts, findLatinTexts } from '../../../e2e/support/latin-text';
import { BarrierSettingsRoute } from './app/routes/admin/barrier-settings';
import { DeviceCheckAdminRoute } from './app/routes/admin/device-check-admin';
import { DeviceLogAdminRoute } from './app/routes/admin/device-log-admin';
import { DeviceText } from './components/device-text';
import { barrier, deviceHealth, page } from './test/admin-fixtures';
import { mockApi } from './test/mock-api';
import { renderRoute, signIn } from './test/render';

const state = { barrier_id: 5 };

/** The Latin words the journeys' walk would report on what is rendered now. */
const latinOnScreen = () =>
  findLatinTexts(collectScreenTexts()).map(({ text, words }) => `${words}: ${text}`);

const check = {
  id: 3,
  status: 'ready',
  full: false,
  automatic: false,
  created_at: '2026-01-11T10:00:00Z',
  finished_at: '2026-01-11T10:01:00Z',
  queries_total: 1,
  queries_answered: 1,
  failure: null,
  slots_read: 10,
  differences: [
    { slot: 1, device: null, expected: '+79001110001', action: 'write' },
    { slot: 5, device: '+79990000005', expected: null, action: 'remove' },
  ] as DeviceCheckDifference[],
  repair_sms: 3,
  repair_numbers_sms: 2,
  repair_clock_sms: 1,
};

const profileOf = (model: string) => ({
  model,
  profile: null,
  number_format: '0007',
  number_formats: Object.entries(NUMBER_FORMAT_LABELS).map(([value, label]) => ({ value, label })),
  documented: {
    number_format: '0007',
    number_format_source: 'production',
    replies: {
      add: [{ template: 'Serial:{slot} Number:{number} Set Success!', source: 'production' }],
      delete: [],
    },
  },
});

function openDeviceCheck(model: string, differences: DeviceCheckDifference[] = check.differences) {
  signIn();
  mockApi({
    'GET /api/admin/barriers/5/device-health/': deviceHealth,
    'GET /api/admin/barriers/5/device-check/': { check: { ...check, differences }, audit_every_days: null },
    'GET /api/admin/barriers/5/device-profile/': profileOf(model),
    'GET /api/admin/barriers/5/device-check/alarm-layout/': {
      available: false,
      reason: 'alarm_layout_unsupported',
      gateway_number: null,
      moves: [],
      staying: [],
      first_resident_slot: 1,
      sms: 0,
    },
  });
  return renderRoute(<DeviceCheckAdminRoute />, { path: '/device-check-admin', state });
}

describe('the device screens, rendered, hold no Latin outside a labelled device text', {
  timeout: 20_000,
}, () => {
  it('«Проверить устройство» of a Telemetrica: the check, the cost per kind, the unverified forms', async () => {
    openDeviceCheck('Telemetrica');
    await screen.findByTestId('unverified-forms');
    await screen.findByText('Номера: 2 СМС (сначала удаления).');
    await screen.findByText(/Ответ устройства по руководству/);
    // The sheet's English replies and templates are on the screen, each under its label.
    expect(screen.getByText('Family number has been deleted')).toBeInTheDocument();
    expect(latinOnScreen()).toEqual([]);
  });

  it('«Проверить устройство» of an RTU5025: the unit’s power messages, the clock order', async () => {
    openDeviceCheck('RTU5025');
    await screen.findByTestId('unverified-forms');
    expect(screen.getByText('Power failure')).toBeInTheDocument();
    expect(latinOnScreen()).toEqual([]);
  });

  it('«Проверить устройство»: the differences in plain Russian, the unit’s raw text only under «Ответ устройства»', async () => {
    openDeviceCheck('RTU5025', [
      ...check.differences,
      { slot: 7, device: 'No Number', expected: '+79001110007', action: 'write' },
    ]);
    const table = await screen.findByTestId('device-check-differences');
    const cells = (row: number) =>
      within(within(table).getAllByRole('row')[row] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    // Numbers as every screen shows them, never broken across lines (no-break spaces); an empty slot «пусто».
    expect(cells(1)).toEqual(['1', 'пусто', '+7\u00a0(900)\u00a0111-00-01', 'записать']);
    expect(cells(2)).toEqual(['5', '+7\u00a0(999)\u00a0000-00-05', 'пусто', 'удалить']);
    // What the unit said in a slot that is not a number: said so in Russian, its own text under its label.
    expect(cells(3)).toEqual([
      '7',
      'не номер телефонаОтвет устройства: No Number',
      '+7\u00a0(900)\u00a0111-00-07',
      'записать',
    ]);
    expect(within(table).queryByText(/\+79/)).not.toBeInTheDocument();
    expect(latinOnScreen()).toEqual([]);
  });

  it('the device log: every SMS under «Текст СМС», every reply under «Ответ устройства», no internal id', async () => {
    signIn();
    const sent = {
      id: 11,
      created_at: '2026-01-11T10:00:00Z',
      direction: 'out',
      text: '****AL001#010#',
      outcome: 'sent',
      command_id: 17,
      command_kind: 'read',
      provider_id: 'gw-17',
    };
    const reply = {
      ...sent,
      id: 12,
      direction: 'in',
      text: 'Set Time OK',
      outcome: 'confirmed',
      provider_id: null,
    };
    mockApi({
      'GET /api/admin/barriers/5/device-health/': deviceHealth,
      'GET /api/admin/barriers/5/device-log/': {
        ...page('messages', [reply, sent], 2, 1, 20),
        unrecognised_count: 0,
      },
    });
    renderRoute(<DeviceLogAdminRoute />, { path: '/device-log-admin', state });
    await screen.findByText('Set Time OK');
    expect(screen.getAllByText('Команда: чтение номеров')).toHaveLength(2);
    expect(screen.queryByText(/#17/)).not.toBeInTheDocument();
    expect(latinOnScreen()).toEqual([]);
  });

  it('«Настройки устройства»: no placeholder until filled, then the SMS under «Текст СМС»', async () => {
    signIn();
    const sheet = getSettings('RTU5025');
    mockApi({
      'GET /api/admin/barriers/5/': barrier,
      'GET /api/admin/barriers/5/settings/': { settings: { relay_time: sheet.relay_time } },
    });
    const { user } = renderRoute(<BarrierSettingsRoute />, { path: '/barrier-settings', state });
    await user.click(await screen.findByRole('textbox', { name: 'Настройка' }));
    await user.click(await screen.findByRole('option', { name: 'Время открытия' }));
    await screen.findByTestId('command-preview-pending');
    expect(latinOnScreen()).toEqual([]);
    await user.type(screen.getByRole('textbox', { name: 'Секунды' }), '50');
    expect(screen.getByTestId('command-preview')).toHaveTextContent('****GOT050#');
    expect(latinOnScreen()).toEqual([]);
  });

  it('«Настройки устройства»: the relay event is a Russian choice, the SMS keeps the device’s ON/OFF', async () => {
    signIn();
    const sheet = getSettings('RTU5025');
    const api = mockApi({
      'GET /api/admin/barriers/5/': barrier,
      'GET /api/admin/barriers/5/settings/': { settings: { messages: sheet.messages } },
      'POST /api/admin/barriers/5/settings/': { detail: 'ok', command_id: 9 },
      'GET /api/admin/barriers/5/settings/commands/9/': { id: 9, state: 'sent', failure: null },
    });
    const { user } = renderRoute(<BarrierSettingsRoute />, { path: '/barrier-settings', state });
    await user.click(await screen.findByRole('textbox', { name: 'Настройка' }));
    await user.click(await screen.findByRole('option', { name: 'Отключение СМС об открытии и закрытии' }));
    await screen.findByTestId('command-preview-pending');
    // Nothing typed: the event is picked among Russian words, none of them the device's ON or OFF.
    await user.click(screen.getByRole('textbox', { name: 'Событие' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['При открытии', 'При закрытии']);
    expect(latinOnScreen()).toEqual([]);
    await user.click(screen.getByRole('option', { name: 'При закрытии' }));
    expect(screen.getByRole('textbox', { name: 'Событие' })).toHaveValue('При закрытии');
    expect(screen.getByTestId('command-preview')).toHaveTextContent('****GOFF##');
    expect(latinOnScreen()).toEqual([]);
    // The server gets the device's word.
    await user.click(screen.getByRole('button', { name: 'Отправить' }));
    await screen.findByText(/Ждём ответа устройства/);
    expect(api.callsTo('POST /api/admin/barriers/5/settings/')[0]?.body).toEqual({
      setting: 'messages',
      params: { mode: 'OFF' },
    });
  });

  it('fails on command syntax or an English reply shown bare, or under another label', () => {
    render(
      <MantineProvider>
        <p>
          Команда: <Code translate="no">{'****GOT{seconds}#'}</Code>
        </p>
        <p>
          <DeviceText side="sms">****GOT050#</DeviceText>
        </p>
        <p>{'{slot}:{number}'}</p>
        <p>Set Time OK</p>
      </MantineProvider>,
    );
    expect(latinOnScreen()).toEqual([
      'GOT,seconds: ****GOT{seconds}#',
      'slot,number: {slot}:{number}',
      'Set,Time,OK: Set Time OK',
    ]);
  });
});
