import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api';
import { renderRoute, signIn } from '../../../test/render';
import { DeviceCheckAdminRoute } from './device-check-admin';
import { deviceHealth } from './test-data';

const state = { barrier_id: 5 };

const profileOf = (model: string, profile: Record<string, unknown> | null = null) => ({
  model,
  profile,
  number_format: '+7',
  number_formats: [{ value: '+7', label: '+7XXXXXXXXXX' }],
  documented: { number_format: '+7', number_format_source: 'production', replies: { add: [], delete: [] } },
});

function open(model: string, profile: Record<string, unknown> | null = null) {
  signIn();
  const server = mockApi({
    'GET /api/admin/barriers/5/device-health/': deviceHealth,
    'GET /api/admin/barriers/5/device-check/': { check: null, audit_every_days: null },
    'GET /api/admin/barriers/5/device-profile/': profileOf(model, profile),
    'PUT /api/admin/barriers/5/device-profile/': profileOf(model, { clock_order: 'ddMMyyHHmm' }),
  });
  return { server, ...renderRoute(<DeviceCheckAdminRoute />, { path: '/device-check-admin', state }) };
}

describe('/device-check-admin: the sheet’s unverified forms and the clock order (issue 30)', {
  timeout: 20_000,
}, () => {
  it('marks every Telemetrica form no source shows for a gate module «не проверено на устройстве»', async () => {
    open('Telemetrica');
    const note = await screen.findByTestId('unverified-forms');
    expect(note).toHaveTextContent('Не проверено на устройстве');
    // What each form does in Russian; its text only under «Текст СМС» or «Ответ устройства» (issue 32 item 5).
    const rows = within(note).getAllByTestId('unverified-form');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Запись номера. Текст СМС: #06#{number}#',
      'Удаление номера. Текст СМС: #15#{number}#',
      'Чтение номеров. Текст СМС: #06#',
      'Запись нескольких номеров одной СМС. Текст СМС: #06#{number}',
      'Ответ на запись номера. Ответ устройства: success',
      'Ответ на удаление номера. Ответ устройства: Family number has been deleted',
      // A line of its list answer: no source shows the layout (issue 42).
      'Ответ на чтение номеров. Ответ устройства: {number}',
    ]);
    // Each form once: the sheet's shared «success» and the read that is also a setting made duplicate keys.
    expect(new Set(rows.map((row) => row.textContent)).size).toBe(rows.length);
    for (const code of note.querySelectorAll('[translate="no"]'))
      expect(code.closest('[data-device-text]')?.textContent).toMatch(/^(Текст СМС|Ответ устройства): /);
    // A model without a clock offers no clock order.
    expect(screen.queryByRole('textbox', { name: 'Порядок цифр в команде часов' })).not.toBeInTheDocument();
  });

  it('offers the two clock orders on an RTU and sends the chosen one', async () => {
    const { user, server } = open('RTU5025');
    const select = await screen.findByRole('textbox', { name: 'Порядок цифр в команде часов' });
    expect(select).toHaveValue('ГГММДДЧЧММ и # в конце (по умолчанию)');
    // Every whitelist form is documented; the unit's power SMS are not quoted by any source (issue 30 item 5).
    const note = screen.getByTestId('unverified-forms');
    expect(note).not.toHaveTextContent('Запись номера');
    expect(note).toHaveTextContent('Сообщение устройства о пропаже питания. Ответ устройства: Power failure');
    expect(note).toHaveTextContent(
      'Сообщение устройства о восстановлении питания. Ответ устройства: Power recovery',
    );
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'ДДММГГЧЧММ без # в конце' }));
    await user.click(screen.getByRole('button', { name: 'Сохранить профиль' }));
    await screen.findByText('Профиль устройства сохранён.');
    expect(server.callsTo('PUT /api/admin/barriers/5/device-profile/')[0]?.body).toEqual({
      clock_order: 'ddMMyyHHmm',
    });
  });
});
