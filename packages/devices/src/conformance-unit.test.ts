import { describe, expect, it } from 'vitest';
import { recogniseAlarm } from './alarms.ts';
import { renderCommand } from './commands.ts';
import { numberFormatShown } from './conformance-learn.ts';
import { PLAY_GATEWAY, PLAY_PASSWORD, playConformance } from './conformance-play.test-support.ts';
import { createDeviceSimulator, type DeviceSimulator } from './simulator.ts';

/**
 * Issue 42 items 2, 3 and 6: a simulated unit that differs from its sheet (the other clock order, another
 * number form, its own power texts, fewer slots): the run finds each difference, learns it, and the engine
 * then renders for that unit what it reads.
 */
const NOW = new Date('2026-11-28T12:00:00Z');
const TEST = '+79161234567';
const RESIDENT = '+79167654321';

function unitWithGateway(): DeviceSimulator {
  const unit = createDeviceSimulator({ model: 'RTU5025', password: PLAY_PASSWORD, clock: NOW });
  // The gateway in slot 1: the power SMS goes there (RTU5025 manual p. 10, note 3).
  unit.receive(`${PLAY_PASSWORD}A001#${PLAY_GATEWAY.replace('+7', '0007')}#`, NOW);
  return unit;
}

describe('a run on a unit that reads its clock in the other digit order', () => {
  it('does not open in the sheet order, opens in the other, learns it; the engine’s windows then open', () => {
    const unit = unitWithGateway();
    unit.drift({ kind: 'differ', clockOrder: 'ddMMyyHHmm' });
    const run = playConformance('RTU5025', unit, { now: NOW, slot: 999, testNumber: TEST });
    expect(run.verdicts.clock_try_call).toBe('not_opened');
    expect(run.verdicts.clock_retry_call).toBe('different');
    expect(run.learnt.clock_retry_call).toBe('Порядок цифр времени: день-месяц-год');
    expect(run.profile?.clock_order).toBe('ddMMyyHHmm');
    // The unit ends as it began: the test slot empty, its clock right in its own order.
    expect(unit.slots().map((slot) => slot.slot)).toEqual([1]);
    // A resident's window written with the learnt profile is open now and closed after its end.
    const start = new Date(run.end.getTime() - 60_000);
    const end = new Date(run.end.getTime() + 60 * 60_000);
    unit.receive(
      renderCommand(
        'RTU5025',
        { kind: 'add_window', slot: 7, number: RESIDENT, window: { start, end } },
        PLAY_PASSWORD,
        { now: run.end, profile: run.profile },
      ),
      run.end,
    );
    expect(unit.wouldOpenFor(RESIDENT, run.end)).toBe(true);
    expect(unit.wouldOpenFor(RESIDENT, new Date(end.getTime() + 60_000))).toBe(false);
  });

  it('on a unit that reads the sheet order, the first call opens and nothing is learnt', () => {
    const unit = unitWithGateway();
    const run = playConformance('RTU5025', unit, { now: NOW, slot: 999, testNumber: TEST });
    expect(run.verdicts.clock_try_call).toBe('opened');
    expect(run.verdicts.clock_retry_call).toBeUndefined();
    // The order is settled: stored in the profile as the unit confirmed it.
    expect(run.profile).toEqual({ clock_order: 'yyMMddHHmm' });
    expect(Object.values(run.verdicts).every((verdict) => ['as_sheet', 'opened'].includes(verdict))).toBe(
      true,
    );
  });

  it('a unit that takes no window in the test slot (beyond its capacity): both calls fail, nothing settled', () => {
    const unit = unitWithGateway();
    // Calls from the test number are never let in: the window forms are taken and ignored.
    unit.drift({ kind: 'differ', capacity: 998, overCapacity: 'silence' });
    const run = playConformance('RTU5025', unit, { now: NOW, slot: 999, testNumber: TEST });
    expect(run.verdicts.clock_try_call).toBe('not_opened');
    expect(run.verdicts.clock_retry_call).toBe('not_opened');
    expect(run.notes.clock_retry_call).toContain('порядок цифр времени установить не удалось');
    expect(run.profile?.clock_order).toBeUndefined();
  });
});

describe('a run on a unit that stores numbers in another form', () => {
  it.each(['+7', '8', '007', '7'] as const)('learns «%s» from the read-back; later adds use it', (format) => {
    const unit = unitWithGateway();
    unit.drift({ kind: 'differ', numberFormat: format });
    const run = playConformance('RTU5025', unit, { now: NOW, slot: 999, testNumber: TEST });
    expect(run.learnt.read_added).toBe(format);
    expect(run.profile?.number_format).toBe(format);
    const add = renderCommand('RTU5025', { kind: 'add', slot: 7, number: RESIDENT }, PLAY_PASSWORD, {
      profile: run.profile,
    });
    expect(numberFormatShown(add, RESIDENT)).toBe(format);
  });

  it('reads the form before the ten digits, the longest first', () => {
    expect(numberFormatShown('0999:00079161234567', TEST)).toBe('0007');
    expect(numberFormatShown('0999:0079161234567', TEST)).toBe('007');
    expect(numberFormatShown('0999: +79161234567', TEST)).toBe('+7');
    expect(numberFormatShown('0999: 9161234567', TEST)).toBe('10');
    expect(numberFormatShown('0999: Empty', TEST)).toBeNull();
  });
});

describe('a run on a unit with its own power texts (the person cuts the supply)', () => {
  it('captures both texts, and from then on recognises them exactly, not by words', () => {
    const unit = unitWithGateway();
    const texts = { power_failure: 'AC OFF! Battery mode', power_restored: 'AC back, mains OK' };
    unit.drift({ kind: 'differ', alarms: texts });
    // Before: the word rule cannot read these texts (no "power" in them).
    expect(recogniseAlarm('RTU5025', texts.power_failure)).toBeNull();
    const run = playConformance('RTU5025', unit, {
      now: NOW,
      slot: 999,
      testNumber: TEST,
      includePower: true,
    });
    expect(run.verdicts.power_cut).toBe('different');
    expect(run.profile?.alarms).toEqual({
      power_failure: [texts.power_failure],
      power_restored: [texts.power_restored],
    });
    expect(recogniseAlarm('RTU5025', ' AC OFF!  Battery mode', run.profile)?.kind).toBe('power_failure');
    expect(recogniseAlarm('RTU5025', texts.power_restored, run.profile)?.kind).toBe('power_restored');
    // The word rule is off for power once a text is learnt; it stays on a profile without one.
    expect(recogniseAlarm('RTU5025', 'Power failure', run.profile)).toBeNull();
    expect(recogniseAlarm('RTU5025', 'Power failure', null)?.kind).toBe('power_failure');
  });

  it('a skipped power step learns nothing', () => {
    const unit = unitWithGateway();
    const run = playConformance('RTU5025', unit, { now: NOW, slot: 999, testNumber: TEST });
    expect(run.plan.steps.some((step) => step.key === 'power_cut')).toBe(false);
    expect(run.profile?.alarms).toBeUndefined();
  });
});

describe('a run on a unit that holds fewer numbers than its sheet says', () => {
  it.each(['error', 'silence'] as const)(
    'an add above its capacity answered with %s: the run shows it',
    (mode) => {
      const unit = unitWithGateway();
      unit.drift({ kind: 'differ', capacity: 200, overCapacity: mode });
      const run = playConformance('RTU5025', unit, { now: NOW, slot: 999, testNumber: TEST });
      expect(run.verdicts.add).toBe(mode === 'error' ? 'format_error' : 'no_answer');
      // The read-back shows the slot empty; nothing was stored above the capacity.
      expect(unit.slots().every((slot) => slot.slot <= 200)).toBe(true);
      // A slot within the capacity takes its number.
      const run2 = playConformance('RTU5025', unit, { now: NOW, slot: 150, testNumber: TEST });
      expect(run2.verdicts.add).toBe('as_sheet');
    },
  );
});
