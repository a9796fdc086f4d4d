/** A person's choices and quiet hours as pure functions (issue 43): what he hears and when. */
import {
  ADMIN_EVENT_KINDS,
  DEFAULT_EVENT_CHOICE,
  type EventKind,
  RESIDENT_EVENT_KINDS,
  URGENT_EVENT_KINDS,
} from '@propusk/contracts/notifications';

export interface Choices {
  choices: Record<string, boolean>;
  quietFrom: number | null;
  quietTo: number | null;
  timeZone: string;
  /** An administrator's «СМС при отключении питания» (power-sms.ts); off unless he chose it. */
  powerSms?: boolean;
}

export const DEFAULT_TIME_ZONE = 'Europe/Moscow';
export const defaultChoices = (): Choices => ({
  choices: {},
  quietFrom: null,
  quietTo: null,
  timeZone: DEFAULT_TIME_ZONE,
});

/** The kinds a person can receive: an administrator also hears of his barriers. */
export const kindsFor = (role: 'user' | 'admin'): readonly EventKind[] =>
  role === 'admin' ? [...ADMIN_EVENT_KINDS, ...RESIDENT_EVENT_KINDS] : RESIDENT_EVENT_KINDS;

export const wants = (choices: Choices, kind: EventKind): boolean =>
  choices.choices[kind] ?? DEFAULT_EVENT_CHOICE;

/** Minutes after midnight in `timeZone` at `now` (an unknown zone: Moscow). */
export function localMinutes(now: Date, timeZone: string): number {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(now);
  } catch {
    return localMinutes(now, DEFAULT_TIME_ZONE);
  }
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return value('hour') * 60 + value('minute');
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/**
 * When a notification of `kind` may be shown: `now`, or the end of the person's quiet hours when it is not
 * urgent and `now` falls in them (a window may cross midnight: 22:00–07:00).
 */
export function deliverAt(choices: Choices, kind: EventKind, now: Date): Date {
  const { quietFrom: from, quietTo: to } = choices;
  if (from === null || to === null || from === to || URGENT_EVENT_KINDS.has(kind)) return now;
  const minutes = localMinutes(now, choices.timeZone);
  const inside = from < to ? minutes >= from && minutes < to : minutes >= from || minutes < to;
  if (!inside) return now;
  const wait = (to - minutes + 24 * 60) % (24 * 60);
  const at = new Date(now.getTime() + wait * 60_000);
  at.setUTCSeconds(0, 0);
  return at;
}
