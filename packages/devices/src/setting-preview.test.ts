import { describe, expect, it } from 'vitest';
import { maskSecrets } from './mask.ts';
import { DEVICE_MODELS, getSheet } from './models.ts';
import { changesPasswordTo, getSettings, previewSetting, renderSetting } from './settings.ts';

/** A password none of the sheets' examples contains, so masking it cannot touch an example. */
const PASSWORD = '9173';

describe('previewSetting: the settings screen shows what the device receives', () => {
  for (const model of DEVICE_MODELS) {
    const password = getSheet(model).hasPassword ? PASSWORD : null;
    for (const [settingId, setting] of Object.entries(getSettings(model))) {
      it(`${model} ${settingId}: equals the sent SMS as the device log masks it`, () => {
        const params = Object.fromEntries(setting.params.map((param) => [param.key, param.example]));
        const sent = renderSetting(model, settingId, params, password);
        if (!sent.ok) throw new Error(`${model} ${settingId}: the example params do not render`);
        const preview = previewSetting(model, settingId, params);
        expect(preview.isComplete).toBe(true);
        expect(preview.invalid).toEqual({});
        expect(preview.text).toBe(
          maskSecrets(sent.text, [password, changesPasswordTo(model, settingId, params)]),
        );
        expect(preview.text).not.toContain('{');
        if (password) expect(preview.text).not.toContain(password);
      });
    }
  }

  it('normalises values the way the device sheet does (GOT30 is sent as GOT030)', () => {
    expect(renderSetting('RTU5025', 'relay_time', { seconds: ' 30 ' }, '1234')).toEqual({
      ok: true,
      text: '1234GOT030#',
    });
    expect(previewSetting('RTU5025', 'relay_time', { seconds: ' 30 ' })).toEqual({
      text: '****GOT030#',
      isComplete: true,
      invalid: {},
    });
    expect(previewSetting('RTU5025', 'relay_time', { seconds: '50' }).text).toBe('****GOT050#');
  });

  it('masks the password and a new password as the device log does', () => {
    const preview = previewSetting('RTU5025', 'change_password', { new_password: '5678' });
    expect(preview.text).toBe('****P****');
    expect(maskSecrets('1234P5678', ['1234', '5678'])).toBe(preview.text);
    // Even while it is typed and not yet valid, a new password is not shown.
    expect(previewSetting('RTU5025', 'change_password', { new_password: '56' }).text).toBe('****P****');
  });

  it('keeps an empty param as its placeholder and a wrong one as typed, and says it is not complete', () => {
    expect(previewSetting('RTU5025', 'relay_time', {})).toEqual({
      text: '****GOT{seconds}#',
      isComplete: false,
      invalid: {},
    });
    const wrong = previewSetting('RTU5025', 'relay_time', { seconds: '12a' });
    expect(wrong.text).toBe('****GOT12a#');
    expect(wrong.isComplete).toBe(false);
    expect(wrong.invalid.seconds).toBe('Время открытия — целое число секунд от 0 до 999.');
  });

  it('writes no password for a model without one', () => {
    expect(previewSetting('Telemetrica', 'query_list', {}).text).toBe('#06#');
  });
});
