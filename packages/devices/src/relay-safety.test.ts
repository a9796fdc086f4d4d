import { describe, expect, it } from 'vitest';
import { DEVICE_MODELS, getSheet } from './models.ts';
import {
  blockedRelaySettings,
  isRelaySetting,
  MODEL_DIALECTS,
  relaySettingDecision,
} from './relay-safety.ts';

const unchecked = { deviceCheckPassed: false };
const checked = { deviceCheckPassed: true };

describe('relay settings need a known command dialect', () => {
  it('counts relay time, relay on and relay off as relay settings, nothing else', () => {
    const relay = Object.keys(getSheet('RTU5025').settings).filter((id) => isRelaySetting('RTU5025', id));
    expect(relay.sort()).toEqual(['close', 'open', 'relay_time']);
    expect(getSheet('RTU5025').settings.relay_time?.template).toBe('{pwd}GOT{seconds}#');
  });

  it('refuses relay settings of an RTU5024 (two firmwares under one name) until a device check passed', () => {
    for (const id of ['relay_time', 'open', 'close']) {
      expect(relaySettingDecision('RTU5024', id, unchecked)).toEqual({
        known: false,
        code: 'relay_dialect_unknown',
      });
      expect(relaySettingDecision('RTU5024', id, checked)).toEqual({ known: true, basis: 'device_check' });
    }
    expect(blockedRelaySettings('RTU5024', unchecked).sort()).toEqual(['close', 'open', 'relay_time']);
    expect(blockedRelaySettings('RTU5024', checked)).toEqual([]);
  });

  it('never blocks other settings of an unknown dialect (they do not move the relay)', () => {
    for (const id of ['query_range', 'query_slot', 'access_all', 'change_password', 'messages']) {
      expect(relaySettingDecision('RTU5024', id, unchecked)).toEqual({ known: true, basis: 'not_relay' });
    }
  });

  it('allows relay settings of an RTU5025, whose only documented firmware is the sheet', () => {
    expect(relaySettingDecision('RTU5025', 'relay_time', unchecked)).toEqual({ known: true, basis: 'model' });
    expect(blockedRelaySettings('RTU5025', unchecked)).toEqual([]);
  });

  it('has no relay settings to block on Telemetrica', () => {
    expect(blockedRelaySettings('Telemetrica', unchecked)).toEqual([]);
    expect(MODEL_DIALECTS.Telemetrica.kind).toBe('none');
  });

  it('says for every model where its dialect comes from, and a model with relay settings is not "none"', () => {
    for (const model of DEVICE_MODELS) {
      expect(MODEL_DIALECTS[model].source).not.toBe('');
      const hasRelay = Object.keys(getSheet(model).settings).some((id) => isRelaySetting(model, id));
      expect(MODEL_DIALECTS[model].kind === 'none').toBe(!hasRelay);
    }
  });
});
