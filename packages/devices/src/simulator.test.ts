import { describe, expect, it } from 'vitest';
import { createDeviceSimulator } from './simulator.ts';

const moscow = (wall: string) => new Date(`${wall}+03:00`);
const now = moscow('2025-03-03T06:00');

describe('RTU5025 simulator', () => {
  it('adds, overwrites and deletes slots, replying like the device', () => {
    const device = createDeviceSimulator({ model: 'RTU5025', password: '1234', clock: now });
    expect(device.receive('1234A001#79161234567#', now)).toBe('Serial:001 Number:79161234567 Set Success!');
    expect(device.receive('1234A002#79160000002#', now)).toBe('Serial:002 Number:79160000002 Set Success!');
    expect(device.receive('1234A002#79169999999#', now)).toBe('Serial:002 Number:79169999999 Set Success!');
    expect(device.whitelist(now)).toEqual([
      { slot: 1, number: '+79161234567' },
      { slot: 2, number: '+79169999999' },
    ]);
    expect(device.receive('1234A001##', now)).toBe('Serial:001 Delete Success!');
    expect(device.receive('1234A001##', now)).toBe('Serial:001 Delete Success!');
    expect(device.slots()).toEqual([{ slot: 2, number: '+79169999999' }]);
    expect(device.wouldOpenFor('+79169999999', now)).toBe(true);
    expect(device.wouldOpenFor('+79161234567', now)).toBe(false);
  });

  it('refuses a wrong password and changes nothing', () => {
    const device = createDeviceSimulator({ model: 'RTU5025', password: '1234', clock: now });
    expect(device.receive('4321A001#79161234567#', now)).toBe('Password Error!');
    expect(device.receive('4321P0000', now)).toBe('Password Error!');
    expect(device.receive('4321ALL#', now)).toBe('Password Error!');
    expect(device.slots()).toEqual([]);
    expect(device.state()).toMatchObject({ password: '1234', allowAllCallers: false });
  });

  it('ignores malformed commands', () => {
    const device = createDeviceSimulator({ model: 'RTU5025', password: '1234', clock: now });
    for (const text of [
      'hello',
      '',
      '1234A1#79161234567#',
      '1234A000#79161234567#',
      '1234A001#89161234567#',
      '1234A001#7916123456#',
      '1234A001#79161234567',
      '1234A001#79161234567#2503031300#2503031200#',
      '1234A001#79161234567#2502300800#2503011200#',
      '1234T2513010800#',
      '12345A001##',
      '1234GOT1000#',
      '1234AL010#001#',
    ]) {
      expect(device.receive(text, now), text).toBeNull();
    }
    expect(device.slots()).toEqual([]);
  });

  it('judges windows by its own clock, which starts wrong until set', () => {
    const device = createDeviceSimulator({ model: 'RTU5025', password: '1234' });
    expect(device.receive('1234A003#79160000003#2503031000#2503031800#', now)).toBe(
      'Serial:003 Number:79160000003 Time:2503031000-2503031800 Set Success!',
    );
    const inside = moscow('2025-03-03T12:00');
    expect(device.clockReading(inside)).toBe('0001010600');
    expect(device.whitelist(inside)).toEqual([]);

    expect(device.receive('1234T2503030600#', now)).toBe('Time:2503030600 Set Success!');
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

  it('understands its settings', () => {
    const device = createDeviceSimulator({ model: 'RTU5025', password: '1234', clock: now });
    device.receive('1234A005#79160000005#', now);
    device.receive('1234A007#79160000007#', now);
    expect(device.receive('1234A005?', now)).toBe('Serial:005 Number:79160000005');
    expect(device.receive('1234A006?', now)).toBe('Serial:006 Number:Empty');
    expect(device.receive('1234AL001#010#', now)).toBe(
      'Serial:005 Number:79160000005\nSerial:007 Number:79160000007',
    );
    expect(device.receive('1234AL100#200#', now)).toBe('No Number!');
    expect(device.receive('1234ALL#', now)).toBe('ALL Set Success!');
    expect(device.wouldOpenFor('+79990000000', now)).toBe(true);
    expect(device.receive('1234AUT#', now)).toBe('AUT Set Success!');
    expect(device.wouldOpenFor('+79990000000', now)).toBe(false);
    expect(device.receive('1234GOT030#', now)).toBe('GOT:030 Set Success!');
    expect(device.receive('1234GON##', now)).toBe('GON Set Success!');
    expect(device.receive('1234CC', now)).toBe('Relay ON');
    expect(device.state()).toMatchObject({ relaySeconds: 30, messages: true, relayOn: true });
    expect(device.receive('1234OO', now)).toBe('Relay OFF');
    expect(device.receive('1234TEL0079161234567#', now)).toBe('TEL:0079161234567 Set Success!');
    expect(device.receive('1234P5678', now)).toBe('Password:5678 Set Success!');
    expect(device.receive('1234CC', now)).toBe('Password Error!');
    expect(device.state()).toMatchObject({ password: '5678', relayOn: false, deviceNumber: '0079161234567' });
  });
});

describe('RTU5024 simulator', () => {
  it('holds slots 001–200 only', () => {
    const device = createDeviceSimulator({ model: 'RTU5024', password: '1234', clock: now });
    expect(device.receive('1234A200#79160000200#', now)).not.toBeNull();
    expect(device.receive('1234A201#79160000201#', now)).toBeNull();
  });
});

describe('Telemetrica simulator', () => {
  it('adds and deletes without a password, and ignores what it does not understand', () => {
    const device = createDeviceSimulator({ model: 'Telemetrica' });
    expect(device.receive('ADD 12 +79161234567', now)).toBe('OK ADD 12 +79161234567');
    expect(device.whitelist(now)).toEqual([{ slot: 12, number: '+79161234567' }]);
    expect(device.receive('GET 12', now)).toBe('SLOT 12 +79161234567');
    expect(device.receive('DEL 12', now)).toBe('OK DEL 12');
    expect(device.receive('GET 12', now)).toBe('SLOT 12 EMPTY');
    expect(device.receive('1234A001#79161234567#', now)).toBeNull();
    expect(device.receive('ADD 1001 +79161234567', now)).toBeNull();
    expect(device.receive('ADD 1 79161234567', now)).toBeNull();
    expect(device.receive('OPEN', now)).toBe('OK OPEN');
    expect(device.receive('RELAY 5', now)).toBe('OK RELAY 5');
    expect(device.slots()).toEqual([]);
  });
});
