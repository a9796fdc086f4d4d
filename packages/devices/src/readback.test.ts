import { describe, expect, it } from 'vitest';
import {
  adoptList,
  adoptReading,
  diffList,
  diffReading,
  joinReadAnswer,
  parseReadReply,
  planReadBack,
  renderReadQuery,
} from './readback.ts';
import { createDeviceSimulator } from './simulator.ts';

const now = new Date('2025-03-03T06:00:00Z');

describe('planning a check', () => {
  it('reads an RTU in ranges of 10 slots (one reply SMS each), up to the slot after the last in use', () => {
    expect(planReadBack('RTU5025', [1, 2, 3])).toEqual([{ kind: 'range', from: 1, to: 10 }]);
    expect(planReadBack('RTU5025', [1, 10])).toEqual([
      { kind: 'range', from: 1, to: 10 },
      { kind: 'range', from: 11, to: 20 },
    ]);
    expect(planReadBack('RTU5025', [])).toEqual([{ kind: 'range', from: 1, to: 10 }]);
    expect(planReadBack('RTU5025', [], { full: true })).toHaveLength(100);
    expect(planReadBack('RTU5024', [199, 200])).toEqual(
      Array.from({ length: 20 }, (_, index) => ({
        kind: 'range',
        from: index * 10 + 1,
        to: index * 10 + 10,
      })),
    );
    expect(planReadBack('Telemetrica', [1, 2, 3])).toEqual([{ kind: 'list' }]);
  });

  it('writes the query of the manual', () => {
    // RTU5025 manual p. 10, §6.2.2: "1234AL002#050#".
    expect(renderReadQuery('RTU5025', { kind: 'range', from: 2, to: 50 }, '1234')).toBe('1234AL002#050#');
    // RTU5025 manual p. 10, §6.2.1: "1234A002#".
    expect(renderReadQuery('RTU5025', { kind: 'slot', slot: 2 }, '1234')).toBe('1234A002#');
    expect(renderReadQuery('Telemetrica', { kind: 'list' }, null)).toBe('#06#');
  });
});

describe('reading the replies', () => {
  const range = { kind: 'range', from: 1, to: 10 } as const;

  it('reads NNN:number and NNN:Empty lines (RTU5024 manual p. 7; production), missing slots as empty', () => {
    const reply = '001:004413500001111\n002: Empty\n003:00079161234567\r\n005:+79160000005';
    expect(parseReadReply('RTU5025', range, reply)).toEqual({
      outcome: 'read',
      slots: {
        1: '004413500001111',
        2: null,
        3: '+79161234567',
        4: null,
        5: '+79160000005',
        6: null,
        7: null,
        8: null,
        9: null,
        10: null,
      },
      answered: [1, 2, 3, 5],
    });
  });

  it('joins a split answer over the range first asked, and names the slots a retry must still ask for', () => {
    const first = '001:00079160000001\n002: Empty\n003: Empty\n004: Empty\n005: Empty';
    const narrowed = { query: { kind: 'range', from: 6, to: 10 } as const, whole: range };
    expect(joinReadAnswer('RTU5025', { query: range }, null, first).missing).toEqual([6, 7, 8, 9, 10]);
    const rest = '006: Empty\n007: Empty\n008: Empty\n009: Empty\n010:00079160000010';
    // Over the range first asked, not the narrowed one: without the first part, slots 1–5 are missing.
    expect(joinReadAnswer('RTU5025', narrowed, null, rest).missing).toEqual([1, 2, 3, 4, 5]);
    expect(joinReadAnswer('RTU5025', narrowed, first, rest)).toEqual({
      complete: true,
      missing: [],
      text: `${first}\n${rest}`,
    });
  });

  it('keeps what it cannot read as a number, ignores lines outside the range, and knows errors', () => {
    const parsed = parseReadReply(
      'RTU5025',
      { kind: 'range', from: 1, to: 2 },
      '001:12345678901234\n011:Empty',
    );
    expect(parsed).toEqual({ outcome: 'read', slots: { 1: '12345678901234', 2: null }, answered: [1] });
    expect(parseReadReply('RTU5025', range, 'Relay ON')).toBeNull();
    expect(parseReadReply('RTU5025', range, '011:Empty')).toBeNull();
    expect(parseReadReply('RTU5025', range, 'Error password')).toEqual({ outcome: 'refused' });
    expect(parseReadReply('RTU5025', range, 'Command error, please resend command')).toEqual({
      outcome: 'format_error',
    });
  });

  it('reads the list of a Telemetrica unit', () => {
    expect(parseReadReply('Telemetrica', { kind: 'list' }, '+79161234567\n+79160000002')).toEqual({
      outcome: 'read_list',
      numbers: ['+79160000002', '+79161234567'],
    });
    expect(parseReadReply('Telemetrica', { kind: 'list' }, 'success')).toEqual({
      outcome: 'read_list',
      numbers: [],
    });
    expect(parseReadReply('Telemetrica', { kind: 'list' }, 'hello')).toBeNull();
  });
});

describe('differences and repair', () => {
  it('finds a number written by hand, a wiped slot and a wrong number; ignores a window that ended', () => {
    const ended = { start: new Date('2025-03-01T00:00:00Z'), end: new Date('2025-03-02T00:00:00Z') };
    const differences = diffReading({
      reading: { 1: '+79160000001', 2: null, 3: '+79990000003', 4: '+79160000004', 5: '+79160000005' },
      believed: [
        { slot: 1, number: '+79160000001' },
        { slot: 2, number: '+79160000002' },
        { slot: 4, number: '+79160000004' },
        { slot: 5, number: '+79160000005', window: ended },
      ],
      desired: [
        { slot: 1, number: '+79160000001' },
        { slot: 2, number: '+79160000002' },
        { slot: 4, number: '+79160000044' },
      ],
      now,
    });
    expect(differences).toEqual([
      { slot: 2, device: null, expected: '+79160000002', action: 'write' },
      { slot: 3, device: '+79990000003', expected: null, action: 'remove' },
      { slot: 4, device: '+79160000004', expected: '+79160000044', action: 'write' },
    ]);
    expect(
      diffList({
        numbers: ['+79990000003', '+79160000001'],
        desired: [
          { slot: 1, number: '+79160000001' },
          { slot: 2, number: '+79160000002' },
        ],
      }),
    ).toEqual([
      { slot: null, device: '+79990000003', expected: null, action: 'remove' },
      { slot: 2, device: null, expected: '+79160000002', action: 'write' },
    ]);
  });

  it('trusts the reading, keeping windows of matching entries and forgetting the clock', () => {
    const window = { start: new Date('2025-03-04T00:00:00Z'), end: new Date('2025-03-05T00:00:00Z') };
    const believed = {
      entries: [
        { slot: 1, number: '+79160000001', window },
        { slot: 2, number: '+79160000002' },
        { slot: 20, number: '+79160000020' },
      ],
      clockSetAt: now,
    };
    expect(adoptReading(believed, { 1: '+79160000001', 2: null, 3: '+79990000003', 4: 'garbage' })).toEqual({
      entries: [
        { slot: 1, number: '+79160000001', window },
        { slot: 3, number: '+79990000003' },
        { slot: 20, number: '+79160000020' },
      ],
      unconfirmedSlots: [4],
      uncertain: [],
      clockSetAt: null,
    });
    expect(adoptList({ entries: [{ slot: 1, number: '+79160000001' }] }, ['+79990000003'])).toEqual({
      entries: [],
      uncertain: [{ slot: 0, number: '+79990000003' }],
      unconfirmedSlots: [],
    });
  });

  it('reads back exactly what a drifted simulator holds', () => {
    const device = createDeviceSimulator({ model: 'RTU5025', password: '1234', clock: now });
    device.receive('1234A001#00079160000001#', now);
    device.drift({ kind: 'manual_add', slot: 7, number: '+79990000007' });
    const query = planReadBack('RTU5025', [1])[0]!;
    const reply = device.receive(renderReadQuery('RTU5025', query, '1234'), now) ?? '';
    const parsed = parseReadReply('RTU5025', query, reply);
    expect(parsed?.outcome).toBe('read');
    if (parsed?.outcome !== 'read') return;
    expect(parsed.slots[1]).toBe('+79160000001');
    expect(parsed.slots[2]).toBeNull();
    expect(parsed.slots[7]).toBe('+79990000007');
  });
});
