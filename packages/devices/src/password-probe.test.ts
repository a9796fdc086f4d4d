/** Issue 30 item 4: the probe's read and the reset button, as the sheets and the simulator give them. */
import { describe, expect, it } from 'vitest';
import { getSheet } from './models.ts';
import { passwordProbeQuery, probeAnswerOnly, renderReadQuery, slotsNamed } from './readback.ts';
import { createDeviceSimulator } from './simulator.ts';

describe('password probe and reset button', () => {
  it('probes with one SMS of two slots on RTU-family units, one slot on hash-style ones, none without a read', () => {
    expect(passwordProbeQuery('RTU5025')).toEqual({ kind: 'range', from: 1, to: 2 });
    expect(renderReadQuery('RTU5025', passwordProbeQuery('RTU5025')!, '5678')).toBe('5678AL001#002#');
    expect(passwordProbeQuery('RTU5024-HASH')).toEqual({ kind: 'slot', slot: 1 });
    expect(passwordProbeQuery('Telemetrica')).toBeNull();
  });

  it('reads slots no recent command names, so that no other answer can be taken for the probe’s', () => {
    // A device check read 1–10 today and an add wrote 12: the probe reads 13–14.
    const avoid = [...Array.from({ length: 10 }, (_, index) => index + 1), 12];
    expect(passwordProbeQuery('RTU5025', avoid)).toEqual({ kind: 'range', from: 13, to: 14 });
    expect(passwordProbeQuery('RTU5024-HASH', [1, 2])).toEqual({ kind: 'slot', slot: 3 });
    expect(passwordProbeQuery('TELL-GC20', [1, 2])).toEqual({ kind: 'list' });
    // Every slot named: no probe can be told apart.
    const all = Array.from({ length: 200 }, (_, index) => index + 1);
    expect(passwordProbeQuery('RTU5024-HASH', all)).toBeNull();
  });

  it('takes as a probe’s answer only a text that names the probe’s slots and no other', () => {
    const probe = { kind: 'range', from: 1, to: 2 } as const;
    const check = '001:00079001234567\n002:Empty\n003:Empty\n004:Empty';
    expect(slotsNamed('RTU5025', check)).toEqual([1, 2, 3, 4]);
    expect(probeAnswerOnly('RTU5025', probe, check)).toBe(false);
    expect(probeAnswerOnly('RTU5025', probe, '001:00079001234567\n002:Empty')).toBe(true);
    expect(probeAnswerOnly('RTU5024-HASH', { kind: 'slot', slot: 3 }, '001:79001234567')).toBe(false);
    expect(probeAnswerOnly('RTU5024-HASH', { kind: 'slot', slot: 3 }, '003: Empty')).toBe(true);
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
