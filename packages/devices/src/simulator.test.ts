import { describe, expect, it } from 'vitest';
import { createDeviceSimulator } from './simulator.ts';

const moscow = (wall: string) => new Date(`${wall}+03:00`);
const now = moscow('2025-03-03T06:00');

describe('RTU5025 simulator', () => {
  it('adds, overwrites and deletes slots, replying in the production forms', () => {
    const device = createDeviceSimulator({ model: 'RTU5025', password: '1234', clock: now });
    expect(device.receive('1234A001#00079161234567#', now)).toBe('001:00079161234567');
    expect(device.receive('1234A002#00079160000002#', now)).toBe('002:00079160000002');
    expect(device.receive('1234A002#0079169999999#', now)).toBe('002:0079169999999');
    expect(device.whitelist(now)).toEqual([
      { slot: 1, number: '+79161234567' },
      { slot: 2, number: '+79169999999' },
    ]);
    expect(device.receive('1234A001##', now)).toBe('001:Empty');
    expect(device.receive('1234A001##', now)).toBe('001:Empty');
    expect(device.slots()).toEqual([{ slot: 2, number: '+79169999999' }]);
    expect(device.wouldOpenFor('+79169999999', now)).toBe(true);
    expect(device.wouldOpenFor('+79161234567', now)).toBe(false);
  });

  it('answers a wrong password with "Error password" and changes nothing', () => {
    const device = createDeviceSimulator({ model: 'RTU5025', password: '1234', clock: now });
    expect(device.receive('4321A001#00079161234567#', now)).toBe('Error password');
    expect(device.receive('4321P0000', now)).toBe('Error password');
    expect(device.receive('4321ALL#', now)).toBe('Error password');
    expect(device.slots()).toEqual([]);
    expect(device.state()).toMatchObject({ password: '1234', allowAllCallers: false });
  });

  it("answers a malformed command with the right password by the manual's format error, and ignores the rest", () => {
    const device = createDeviceSimulator({ model: 'RTU5025', password: '1234', clock: now });
    for (const text of [
      '1234A1#79161234567#',
      '1234A000#79161234567#',
      '1234A001#12345#',
      '1234A001#79161234567',
      '1234A001#79161234567#2503031300#2503031200#',
      '1234A001#79161234567#2502300800#2503011200#',
      '1234T2513010800#',
      '1234GOT1000#',
      '1234AL010#001#',
    ]) {
      expect(device.receive(text, now), text).toBe('SMS Format Error, Please check Caps Lock in Command!');
    }
    for (const text of ['hello', '', '12345A001##', '1234a001##'])
      expect(device.receive(text, now), text).toBeNull();
    expect(device.slots()).toEqual([]);
  });

  it('judges windows by its own clock, which starts wrong until set', () => {
    const device = createDeviceSimulator({ model: 'RTU5025', password: '1234' });
    expect(device.receive('1234A003#00079160000003#2503031000#2503031800#', now)).toBe('003:00079160000003');
    const inside = moscow('2025-03-03T12:00');
    expect(device.clockReading(inside)).toBe('0001010600');
    expect(device.whitelist(inside)).toEqual([]);

    expect(device.receive('1234T2503030600#', now)).toBe('Set Time OK');
    expect(device.clockReading(inside)).toBe('2503031200');
    expect(device.whitelist(moscow('2025-03-03T09:59'))).toEqual([]);
    expect(device.whitelist(moscow('2025-03-03T10:00'))).toEqual([{ slot: 3, number: '+79160000003' }]);
    expect(device.whitelist(moscow('2025-03-03T17:59'))).toEqual([{ slot: 3, number: '+79160000003' }]);
    expect(device.whitelist(moscow('2025-03-03T18:00'))).toEqual([]);
    expect(device.slots()).toEqual([
      { slot: 3, number: '+79160000003', window: { start: '2503031000', end: '2503031800' } },
    ]);
  });

  it('takes a clock given at start in the barrier local time', () => {
    const device = createDeviceSimulator({
      model: 'RTU5025',
      password: '1234',
      clock: now,
      utcOffsetMinutes: 180,
    });
    expect(device.clockReading(now)).toBe('2503030600');
  });

  it('understands its settings in the manual forms', () => {
    const device = createDeviceSimulator({ model: 'RTU5025', password: '1234', clock: now });
    device.receive('1234A005#00079160000005#', now);
    device.receive('1234A007#00079160000007#', now);
    // RTU5025 manual p. 10, §6.2.1 / §6.2.2.
    expect(device.receive('1234A005#', now)).toBe('005:00079160000005');
    expect(device.receive('1234A006#', now)).toBe('006:Empty');
    expect(device.receive('1234AL005#007#', now)).toBe('005:00079160000005\n006:Empty\n007:00079160000007');
    expect(device.receive('1234ALL#', now)).toBe('Set Success!');
    expect(device.wouldOpenFor('+79990000000', now)).toBe(true);
    expect(device.receive('1234AUT#', now)).toBe('Set Success!');
    expect(device.wouldOpenFor('+79990000000', now)).toBe(false);
    expect(device.receive('1234GOT030#', now)).toBe('Set Success!');
    expect(device.receive('1234GON##', now)).toBe('Set Success!');
    expect(device.receive('1234CC', now)).toBe('Relay ON');
    expect(device.state()).toMatchObject({ relaySeconds: 30, messages: false, relayOn: true });
    // The manual switches the relay off with DD, not OO.
    expect(device.receive('1234DD', now)).toBe('Relay OFF');
    expect(device.receive('1234TEL0079161234567#', now)).toBe('Set Success');
    expect(device.receive('1234P5678', now)).toBe('Password changed to 5678, please remember it carefully.');
    expect(device.receive('1234CC', now)).toBe('Error password');
    expect(device.state()).toMatchObject({ password: '5678', relayOn: false, deviceNumber: '0079161234567' });
  });

  it('drifts as real units do: a number written by hand, a wiped slot, a reset', () => {
    const device = createDeviceSimulator({ model: 'RTU5025', password: '1234', clock: now });
    device.receive('1234A001#00079160000001#', now);
    device.drift({ kind: 'manual_add', slot: 9, number: '+79990000009' });
    expect(device.whitelist(now)).toEqual([
      { slot: 1, number: '+79160000001' },
      { slot: 9, number: '+79990000009' },
    ]);
    device.drift({ kind: 'wipe_slot', slot: 1 });
    expect(device.whitelist(now)).toEqual([{ slot: 9, number: '+79990000009' }]);
    device.drift({ kind: 'factory_reset' });
    expect(device.slots()).toEqual([]);
    expect(device.clockReading(now)).toBe('0001010000');
  });

  it('answers in the forms of a barrier profile when it plays such a unit', () => {
    const profile = { replies: { add: ['Serial:{slot} Number:{number} Set Success!'] } };
    const device = createDeviceSimulator({ model: 'RTU5025', password: '1234', clock: now, profile });
    expect(device.receive('1234A001#00079161234567#', now)).toBe(
      'Serial:001 Number:00079161234567 Set Success!',
    );
  });
});

describe('RTU5024 simulator', () => {
  it('holds slots 001–200 only', () => {
    const device = createDeviceSimulator({ model: 'RTU5024', password: '1234', clock: now });
    expect(device.receive('1234A200#00079160000200#', now)).toBe('200:00079160000200');
    expect(device.receive('1234A201#00079160000201#', now)).toBe(
      'SMS Format Error, Please check Caps Lock in Command!',
    );
    expect(device.slots()).toEqual([{ slot: 200, number: '+79160000200' }]);
  });
});

describe('Telemetrica simulator', () => {
  it('holds a set of numbers: #06# adds, #15# deletes by number, #06# alone lists them', () => {
    const device = createDeviceSimulator({ model: 'Telemetrica' });
    expect(device.receive('#06#+79161234567#', now)).toBe('success');
    expect(device.receive('#06#+79161234567#', now)).toBe('success');
    expect(device.receive('#06#+79160000002#', now)).toBe('success');
    expect(device.whitelist(now).map((entry) => entry.number)).toEqual(['+79161234567', '+79160000002']);
    expect(device.receive('#06#', now)).toBe('+79161234567\n+79160000002');
    expect(device.receive('#15#+79161234567#', now)).toBe('success');
    expect(device.whitelist(now).map((entry) => entry.number)).toEqual(['+79160000002']);
    expect(device.receive('1234A001#79161234567#', now)).toBeNull();
    expect(device.receive('ADD 1 +79161234567', now)).toBeNull();
  });
});
