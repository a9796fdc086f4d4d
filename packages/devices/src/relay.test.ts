import { describe, expect, it } from 'vitest';
import { endSteps, holdSteps, openingSteps, relayAvailability } from './relay.ts';
import { renderSetting } from './settings.ts';
import { createDeviceSimulator } from './simulator.ts';

const unchecked = { deviceCheckPassed: false };
const render = (step: { setting: string; params: Record<string, string> }) => {
  const rendered = renderSetting('RTU5025', step.setting, step.params, '1234');
  if (!rendered.ok) throw new Error('not rendered');
  return rendered.text;
};

describe('relay commands of the models', () => {
  it('drives an RTU5025, refuses an unchecked RTU5024 and a Telemetrica', () => {
    expect(relayAvailability('RTU5025', unchecked)).toEqual({ ok: true });
    expect(relayAvailability('RTU5024', unchecked)).toEqual({ ok: false, code: 'relay_dialect_unknown' });
    expect(relayAvailability('RTU5024', { deviceCheckPassed: true })).toEqual({ ok: true });
    expect(relayAvailability('Telemetrica', { deviceCheckPassed: true })).toEqual({
      ok: false,
      code: 'relay_not_supported',
    });
  });

  it('opens with CC, and switches off with DD unless the relay time is known to be timed', () => {
    const unknown = openingSteps('RTU5025', null);
    expect(render(unknown.on)).toBe('1234CC');
    expect(unknown.off && render(unknown.off.step)).toBe('1234DD');
    expect(unknown.off?.afterSeconds).toBe(5);
    expect(openingSteps('RTU5025', 999).off).not.toBeNull();
    expect(openingSteps('RTU5025', 30).off).toBeNull();
    expect(openingSteps('RTU5025', 0).off).toBeNull();
  });

  it('holds with GOT999 then CC, and ends with DD then the relay time the unit had', () => {
    expect(holdSteps('RTU5025').map(render)).toEqual(['1234GOT999#', '1234CC']);
    expect(endSteps('RTU5025', 30).steps.map(render)).toEqual(['1234DD', '1234GOT030#']);
    expect(endSteps('RTU5025', null)).toMatchObject({ restoredSeconds: 0 });
    expect(endSteps('RTU5025', null).steps.map(render)).toEqual(['1234DD', '1234GOT000#']);
  });

  it('the simulated relay follows: timed CC, held open by 999, closed by DD', () => {
    const device = createDeviceSimulator({ model: 'RTU5025', password: '1234' });
    const t0 = new Date('2026-01-01T10:00:00Z');
    const at = (ms: number) => new Date(t0.getTime() + ms);
    expect(device.receive('1234GOT030#', t0)).toBeTruthy();
    expect(device.receive('1234CC', t0)).toBe('Relay ON');
    expect(device.relay(at(29_000)).on).toBe(true);
    expect(device.relay(at(31_000)).on).toBe(false);
    for (const text of holdSteps('RTU5025').map(render)) device.receive(text, at(40_000));
    expect(device.relay(at(3_600_000)).on).toBe(true);
    expect(device.receive('1234DD', at(3_600_000))).toBe('Relay OFF');
    expect(device.relay(at(3_600_001)).on).toBe(false);
  });
});
