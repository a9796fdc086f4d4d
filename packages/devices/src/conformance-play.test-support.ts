/**
 * Test support: a conformance run played against a simulated unit, as the server plays it (one step at a
 * time, a minute apart), with the person's part played by the test — the call is `wouldOpenFor`, the power
 * cut is the unit's own SMS to the gateway in slot 1. Uses only the pure functions the server uses.
 */

import {
  type ConformancePlan,
  conformanceVerdict,
  planConformance,
  renderConformanceWhitelist,
} from './conformance.ts';
import { CLOCK_RETRY_KEYS, renderClockTrial, settleClockCall } from './conformance-clock-steps.ts';
import {
  learnNumberFormat,
  learnPowerTexts,
  learnReplyForm,
  withLearntAlarms,
  withLearntForm,
} from './conformance-learn.ts';
import type { DeviceModel } from './models.ts';
import type { DeviceProfileOverride } from './profile.ts';
import { renderReadQuery } from './readback.ts';
import { renderSetting } from './settings.ts';
import type { DeviceSimulator } from './simulator.ts';

export const PLAY_PASSWORD = '1234';
export const PLAY_GATEWAY = '+79000000001';

export interface PlayedRun {
  plan: ConformancePlan;
  verdicts: Record<string, string>;
  learnt: Record<string, string>;
  notes: Record<string, string>;
  profile: DeviceProfileOverride | null;
  /** When the run ended (a minute a step). */
  end: Date;
}

export function playConformance(
  model: DeviceModel,
  unit: DeviceSimulator,
  options: { now: Date; slot: number; testNumber: string; callNumber?: string; includePower?: boolean },
): PlayedRun {
  let profile: DeviceProfileOverride | null = null;
  let now = options.now;
  const plan = planConformance({
    model,
    slot: options.slot,
    testNumber: options.testNumber,
    now,
    includePassword: false,
    callNumber: options.callNumber ?? options.testNumber,
    includePower: options.includePower ?? false,
  });
  const played: PlayedRun = { plan, verdicts: {}, learnt: {}, notes: {}, profile, end: now };
  let skipRetry = false;
  for (const step of plan.steps) {
    now = new Date(now.getTime() + 60_000);
    const { action } = step;
    if (skipRetry && CLOCK_RETRY_KEYS.includes(step.key)) continue;
    if (action.form === 'ask' && action.ask === 'call') {
      const opened = unit.wouldOpenFor(action.number, now);
      const result = settleClockCall(model, profile, action, step.key === 'clock_retry_call', opened);
      played.verdicts[step.key] = result.verdict;
      if (result.profile) profile = result.profile;
      if (result.learnt) played.learnt[step.key] = result.learnt;
      if (result.note) played.notes[step.key] = result.note;
      skipRetry = !result.retry;
      continue;
    }
    if (action.form === 'ask') {
      const captured = [...unit.raiseAlarm('power_failure'), ...unit.raiseAlarm('power_restored')]
        .filter((sms) => sms.to === PLAY_GATEWAY)
        .map((sms) => sms.text);
      const texts = learnPowerTexts(model, captured);
      if (Object.keys(texts).length > 0) profile = withLearntAlarms(profile, texts);
      played.verdicts[step.key] = captured.length > 0 ? 'different' : 'no_answer';
      continue;
    }
    let text: string | null;
    if (action.form === 'read') text = renderReadQuery(model, action.query, PLAY_PASSWORD, profile);
    else if (action.form === 'clock_trial')
      text = renderClockTrial(model, profile, action, PLAY_PASSWORD, now, 180);
    else if (action.form === 'password_same') {
      const rendered = renderSetting(model, action.setting, { new_password: PLAY_PASSWORD }, PLAY_PASSWORD);
      text = rendered.ok ? rendered.text : null;
    } else text = renderConformanceWhitelist(model, profile, action.command, PLAY_PASSWORD, now, 180);
    if (text === null) throw new Error(`${step.key} does not render`);
    const reply = unit.receive(text, now);
    const verdict = conformanceVerdict(model, profile, step, reply, { password: PLAY_PASSWORD });
    played.verdicts[step.key] = verdict;
    if (reply !== null && step.key === 'read_added') {
      const format = learnNumberFormat(model, profile, reply, options.testNumber);
      if (format) {
        profile = { ...(profile ?? {}), number_format: format };
        played.learnt[step.key] = format;
      }
    }
    if (verdict === 'different' && reply !== null) {
      const form = learnReplyForm(model, profile, step, reply, now, 180);
      if (form) {
        profile = withLearntForm(profile, form);
        played.learnt[step.key] = form.form;
      }
    }
  }
  played.profile = profile;
  played.end = now;
  return played;
}
