/** Issue 30 item 4: the probe's read and the reset button, as the sheets and the simulator give them. */
import { describe, expect, it } from 'vitest';
import { getSheet } from './models.ts';
import { passwordProbeQuery, renderReadQuery } from './readback.ts';
import { createDeviceSimulator } from './simulator.ts';

describe('password probe and reset button', () => {
  it('probes with one SMS of two slots on RTU-family units, one slot on hash-style ones, none without a read', () => {
    expect(passwordProbeQuery('RTU5025')).toEqual({ kind: 'range', from: 1, to: 2 });
    expect(renderReadQuery('RTU5025', passwordProbeQuery('RTU5025')!, '5678')).toBe('5678AL001#002#');
    expect(passwordProbeQuery('RTU5024-HASH')).toEqual({ kind: 'slot', slot: 1 });
    expect(passwordProbeQuery('Telemetrica')).toBeNull();
  });

  it('names the factory password only where a source gives it', () => {
    expect(getSheet('RTU5025').factoryPassword?.value).toBe('1234');
    expect(getSheet('RTU5025').factoryPassword?.source).toContain('1234P6666');
    expect(getSheet('G200').factoryPassword?.value).toBe('1234');
    expect(getSheet('RTU5024-HASH').factoryPassword?.value).toBe('1234');
    expect(getSheet('ESIM120').factoryPassword).toBeUndefined();
    expect(getSheet('TELL-GC20').factoryPassword).toBeUndefined();
  });

  it('plays the reset button: the factory password again, the numbers kept', () => {
    const now = new Date('2026-11-26T12:00:00Z');
    const unit = createDeviceSimulator({ model: 'RTU5025', password: '4321' });
    expect(unit.receive('4321A001#00079001234567#', now)).not.toBeNull();
    unit.drift({ kind: 'password_reset' });
    expect(unit.state().password).toBe('1234');
    expect(unit.whitelist(now).map((entry) => entry.number)).toEqual(['+79001234567']);
    expect(unit.receive('4321AL001#002#', now)).not.toMatch(/001:/);
    expect(unit.receive('1234AL001#002#', now)).toMatch(/^001:00079001234567/);
  });
});
