import { describe, expect, it } from 'vitest';
import { changesPasswordTo, getSettings, matchSettingReply, renderSetting } from './settings.ts';
import { createDeviceSimulator } from './simulator.ts';
import { fillTemplate } from './template.ts';

describe('settings of RTU5025', () => {
  const settings = getSettings('RTU5025');

  it('lists the settings of the issue with Russian names and params without {pwd}', () => {
    expect(Object.keys(settings).sort()).toEqual(
      [
        'access_all',
        'access_authorized',
        'change_password',
        'close',
        'messages',
        'open',
        'query_range',
        'query_slot',
        'relay_time',
        'start',
      ].sort(),
    );
    expect(settings.change_password).toEqual({
      name: 'Смена пароля',
      description:
        'Меняет пароль устройства. Новый пароль сохраняется на сервере, когда устройство подтвердит смену.',
      template: '{pwd}P{new_password}',
      params: [{ key: 'new_password', name: 'Новый пароль', description: 'Ровно 4 цифры', example: '5678' }],
    });
    for (const setting of Object.values(settings)) {
      expect(setting.params.map((param) => param.key)).not.toContain('pwd');
      expect(setting.name).toMatch(/[А-Яа-я]/);
    }
  });

  it('renders the exact texts', () => {
    expect(renderSetting('RTU5025', 'open', {}, '1234')).toEqual({ ok: true, text: '1234CC' });
    expect(renderSetting('RTU5025', 'close', {}, '1234')).toEqual({ ok: true, text: '1234DD' });
    expect(renderSetting('RTU5025', 'access_all', {}, '1234')).toEqual({ ok: true, text: '1234ALL#' });
    expect(renderSetting('RTU5025', 'access_authorized', {}, '1234')).toEqual({ ok: true, text: '1234AUT#' });
    expect(renderSetting('RTU5025', 'change_password', { new_password: '5678' }, '1234')).toEqual({
      ok: true,
      text: '1234P5678',
    });
    expect(renderSetting('RTU5025', 'relay_time', { seconds: '30' }, '1234')).toEqual({
      ok: true,
      text: '1234GOT030#',
    });
    expect(renderSetting('RTU5025', 'query_slot', { slot: '005' }, '1234')).toEqual({
      ok: true,
      text: '1234A005#',
    });
    expect(renderSetting('RTU5025', 'query_range', { from: '001', to: '010' }, '1234')).toEqual({
      ok: true,
      text: '1234AL001#010#',
    });
    expect(renderSetting('RTU5025', 'messages', { mode: 'OFF' }, '1234')).toEqual({
      ok: true,
      text: '1234GOFF##',
    });
    expect(renderSetting('RTU5025', 'start', { phone: '0079161234567' }, '1234')).toEqual({
      ok: true,
      text: '1234TEL0079161234567#',
    });
  });

  it('reports missing and invalid params', () => {
    expect(renderSetting('RTU5025', 'change_password', {}, '1234')).toEqual({
      ok: false,
      missing: ['new_password'],
      invalid: {},
    });
    expect(renderSetting('RTU5025', 'query_range', { from: ' ' }, '1234')).toMatchObject({
      ok: false,
      missing: ['from', 'to'],
    });
    expect(renderSetting('RTU5025', 'change_password', { new_password: '12345' }, '1234')).toMatchObject({
      ok: false,
      invalid: { new_password: 'Пароль устройства — ровно 4 цифры.' },
    });
    expect(renderSetting('RTU5025', 'relay_time', { seconds: '1000' }, '1234')).toMatchObject({
      ok: false,
      invalid: { seconds: expect.any(String) },
    });
    expect(renderSetting('RTU5025', 'query_slot', { slot: '000' }, '1234')).toMatchObject({ ok: false });
    expect(renderSetting('RTU5025', 'query_range', { from: '010', to: '001' }, '1234')).toMatchObject({
      ok: false,
      invalid: { to: expect.any(String) },
    });
    expect(renderSetting('RTU5025', 'messages', { mode: 'maybe' }, '1234')).toMatchObject({ ok: false });
    expect(renderSetting('RTU5025', 'no_such_setting', {}, '1234')).toMatchObject({ ok: false });
  });

  it('lets the preview fill a template while unfilled placeholders stay as written', () => {
    expect(fillTemplate(settings.relay_time!.template, {})).toBe('{pwd}GOT{seconds}#');
    expect(fillTemplate(settings.query_range!.template, { from: '001' })).toBe('{pwd}AL001#{to}#');
  });

  it('tells the server the new password, and the device confirms it', () => {
    expect(changesPasswordTo('RTU5025', 'change_password', { new_password: '5678' })).toBe('5678');
    expect(changesPasswordTo('RTU5025', 'change_password', { new_password: 'x' })).toBeNull();
    expect(changesPasswordTo('RTU5025', 'open', {})).toBeNull();

    const device = createDeviceSimulator({ model: 'RTU5025', password: '1234' });
    const now = new Date('2025-03-01T10:00:00Z');
    const render = renderSetting('RTU5025', 'change_password', { new_password: '5678' }, '1234');
    if (!render.ok) throw new Error('render failed');
    const reply = device.receive(render.text, now) ?? '';
    expect(matchSettingReply('RTU5025', 'change_password', { new_password: '5678' }, reply)).toBe(
      'confirmed',
    );
    expect(matchSettingReply('RTU5025', 'change_password', { new_password: '9999' }, reply)).toBeNull();
    expect(device.receive('1234CC', now)).toBe('Error password');
    expect(matchSettingReply('RTU5025', 'open', {}, 'Error password')).toBe('refused');
    // The manual's reply as printed, with quotes.
    expect(
      matchSettingReply(
        'RTU5025',
        'change_password',
        { new_password: '6666' },
        'Password changed to“6666”, please remember it carefully.',
      ),
    ).toBe('confirmed');
    // A setting without a documented reply is confirmed by any answer that is not an error.
    expect(matchSettingReply('RTU5025', 'access_all', {}, 'Set Success!')).toBe('confirmed');
    expect(
      matchSettingReply('RTU5025', 'access_all', {}, 'SMS Format Error, Please check Caps Lock in Command!'),
    ).toBe('format_error');
    expect(device.receive('5678CC', now)).toBe('Relay ON');
  });
});

describe('settings of Telemetrica', () => {
  it('have no password placeholder and render without one', () => {
    for (const setting of Object.values(getSettings('Telemetrica')))
      expect(setting.template).not.toContain('{pwd}');
    expect(renderSetting('Telemetrica', 'query_list', {}, null)).toEqual({ ok: true, text: '#06#' });
    expect(renderSetting('Telemetrica', 'change_password', { new_password: '1234' }, null)).toMatchObject({
      ok: false,
    });
  });
});
