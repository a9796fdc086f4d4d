import { describe, expect, it } from 'vitest';
import { alarmRecipientSlots, planAlarmLayoutMove, recogniseAlarm, residentSlotRange } from './alarms.ts';
import { getSheet } from './models.ts';
import { createDeviceSimulator } from './simulator.ts';

describe('recogniseAlarm: the forms the sheet cites', () => {
  it.each([
    // King Pigeon's own wording of mains state (RTU5020 manual p. 8) and another unit's alarms (IQSD-GSM p. 17).
    ['External Power Goes OFF', 'power_failure'],
    ['External Power Goes ON', 'power_restored'],
    ['Power failed.', 'power_failure'],
    ['Power restored.', 'power_restored'],
    ['POWER FAILURE ALARM!', 'power_failure'],
    ['Power Recovery', 'power_restored'],
    ['Power down', 'power_failure'],
    ['Alarm', 'alarm'],
    ['Input alarm!', 'alarm'],
  ] as const)('%s → %s on every RTU-family model', (text, kind) => {
    for (const model of ['RTU5025', 'RTU5024', 'G200'] as const)
      expect(recogniseAlarm(model, text)?.kind).toBe(kind);
  });

  it('never takes a reply of the sheet for an alarm', () => {
    const sheet = getSheet('RTU5025');
    const replies = [
      '002:00079161234567',
      '002:Empty',
      'Set Success!',
      'Set Time OK!',
      'Relay ON',
      'Relay OFF',
      'Password changed to 5678, please remember it carefully.',
      ...sheet.replies.refused.map((form) => form.template),
      ...sheet.replies.formatError.map((form) => form.template),
    ];
    for (const text of replies) expect(recogniseAlarm('RTU5025', text), text).toBeNull();
  });

  it('does not guess when a text reads as both a failure and a restoration', () => {
    expect(recogniseAlarm('RTU5025', 'Power OFF, then power ON')).toBeNull();
  });

  it('recognises nothing on models that document no alarms', () => {
    for (const model of ['Telemetrica', 'ESIM120', 'TELL-GC20', 'RTU5024-HASH'] as const)
      expect(recogniseAlarm(model, 'Power failure')).toBeNull();
  });

  it('marks every alarm form «не проверено на устройстве» (no source quotes the texts)', () => {
    for (const form of getSheet('RTU5025').alarms?.forms ?? []) expect(form.unverified).toBe(true);
    expect(getSheet('RTU5025').alarms?.recipientsSource).toMatch(/p\. 10, §6\.2\.0 note 3/);
  });
});

describe('who receives the alarms (RTU5025 manual p. 10, note 3)', () => {
  it('power SMS go to slot 1 only, other alarms to slots 1–6', () => {
    expect(alarmRecipientSlots('RTU5025', 'power_failure')).toEqual([1]);
    expect(alarmRecipientSlots('RTU5025', 'power_restored')).toEqual([1]);
    expect(alarmRecipientSlots('RTU5025', 'alarm')).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('the simulated unit sends its power SMS to the number in slot 1, and to nobody else', () => {
    const unit = createDeviceSimulator({ model: 'RTU5025', password: '1234' });
    const now = new Date('2026-11-26T10:00:00Z');
    expect(unit.raiseAlarm('power_failure')).toEqual([]);
    unit.receive('1234A001#00079990000001#', now);
    unit.receive('1234A002#00079161234567#', now);
    unit.receive('1234A007#00079161234568#', now);
    expect(unit.raiseAlarm('power_failure')).toEqual([{ to: '+79990000001', text: 'Power failure' }]);
    expect(unit.raiseAlarm('power_restored')).toEqual([{ to: '+79990000001', text: 'Power recovery' }]);
    expect(unit.raiseAlarm('alarm').map((sms) => sms.to)).toEqual(['+79990000001', '+79161234567']);
    expect(recogniseAlarm('RTU5025', unit.raiseAlarm('power_failure')[0]?.text ?? '')?.kind).toBe(
      'power_failure',
    );
  });
});

describe('residentSlotRange: slots 2–6 free of residents where capacity allows', () => {
  it('keeps the old layout without the gateway, or on models without alarms', () => {
    expect(residentSlotRange('RTU5025', 100, false)).toEqual({ first: 1, last: 100 });
    expect(residentSlotRange('Telemetrica', 4, true)).toEqual({ first: 1, last: 4 });
  });

  it('starts residents at slot 7 when the unit has room', () => {
    expect(residentSlotRange('RTU5025', 100, true)).toEqual({ first: 7, last: 106 });
    expect(residentSlotRange('RTU5025', 993, true)).toEqual({ first: 7, last: 999 });
    expect(residentSlotRange('G200', 194, true)).toEqual({ first: 7, last: 200 });
  });

  it('goes down into 2–6 only as far as the amount needs, never into slot 1', () => {
    expect(residentSlotRange('RTU5025', 995, true)).toEqual({ first: 5, last: 999 });
    expect(residentSlotRange('G200', 200, true)).toEqual({ first: 2, last: 200 });
  });
});

describe('planAlarmLayoutMove: the move offered to an existing barrier', () => {
  it('moves residents out of 1–6 into the lowest free slots from 7', () => {
    const plan = planAlarmLayoutMove({
      model: 'RTU5025',
      amount: 10,
      phones: [
        { id: 11, slot: 1 },
        { id: 12, slot: 2 },
        { id: 13, slot: 7 },
        { id: 14, slot: 9 },
      ],
    });
    expect(plan).toEqual({
      possible: true,
      moves: [
        { phoneId: 11, from: 1, to: 8 },
        { phoneId: 12, from: 2, to: 10 },
      ],
      staying: [],
      range: { first: 7, last: 16 },
    });
  });

  it('is refused when slot 1 cannot be freed, and leaves in 2–6 whom the unit has no room for', () => {
    const full = Array.from({ length: 200 }, (_, index) => ({ id: index + 1, slot: index + 1 }));
    const refused = planAlarmLayoutMove({ model: 'G200', amount: 200, phones: full });
    expect(refused.possible).toBe(false);
    expect(refused.staying).toContain(1);

    const plan = planAlarmLayoutMove({
      model: 'G200',
      amount: 197,
      phones: Array.from({ length: 196 }, (_, index) => ({ id: index + 1, slot: index + 1 })),
    });
    // Residents from slot 4 (200 − 197 + 1); the four free slots 197–200 take slots 1–3 and no more.
    expect(plan.range).toEqual({ first: 4, last: 200 });
    expect(plan.moves.map((move) => [move.from, move.to])).toEqual([
      [1, 197],
      [2, 198],
      [3, 199],
    ]);
    expect(plan.possible).toBe(true);
  });

  it('is not offered on models without alarms', () => {
    expect(planAlarmLayoutMove({ model: 'Telemetrica', amount: 4, phones: [] }).possible).toBe(false);
  });
});
