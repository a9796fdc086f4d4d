/**
 * The device's health as every screen shows it (issue 41 major 4): one function, so that the barrier page, its
 * health card and the barrier list never disagree. A unit without power is never «в порядке», whatever its
 * last replies said: its power SMS is newer news than the commands it answered before it went dark.
 */
import {
  DEVICE_LOG_TEXTS,
  DEVICE_PROBLEM_LABELS,
  DEVICE_STATE_LABELS,
} from '@propusk/contracts/texts/device-log';

export type HealthTone = 'ok' | 'waiting' | 'problem';

export interface DisplayedHealth {
  /** The device state, or `power_lost` over any of them. */
  key: string;
  /** The state in a word (the badge). */
  label: string;
  tone: HealthTone;
  /** The barrier list's flag of a device in trouble; null when it is well or only waiting. */
  problem: string | null;
  powerLost: boolean;
}

export const POWER_LOST_LABEL = DEVICE_LOG_TEXTS.powerLostState;
export const POWER_LOST_PROBLEM = DEVICE_LOG_TEXTS.powerLostFlag;

export function displayedHealth(
  state: string | undefined,
  power: string | null | undefined,
): DisplayedHealth {
  if (power === 'lost') {
    return {
      key: 'power_lost',
      label: POWER_LOST_LABEL,
      tone: 'problem',
      problem: POWER_LOST_PROBLEM,
      powerLost: true,
    };
  }
  const key = state ?? 'ok';
  const problem = DEVICE_PROBLEM_LABELS[key] ?? null;
  return {
    key,
    label: DEVICE_STATE_LABELS[key] ?? key,
    tone: key === 'ok' ? 'ok' : problem ? 'problem' : 'waiting',
    problem,
    powerLost: false,
  };
}

/** The colours of each tone, chosen for 4.5:1 against the card's white (axe's colour contrast). */
export const HEALTH_TONE_COLORS: Record<HealthTone, string> = {
  ok: 'green.9',
  waiting: 'yellow.9',
  problem: 'red.9',
};
