/**
 * The rows of an import file read as phones, without the database: the number, the type, the window or the
 * schedule, the resident each extra number belongs to, and every problem found so far (ImportProblemCode).
 */
import { collapseSpaces, isCleanText } from '@propusk/contracts/clean-text';
import { IMPORT_TYPE_WORDS, type ImportProblemCode } from '@propusk/contracts/imports';
import {
  PHONE_NAME_MAX_LENGTH,
  type PhoneType,
  parseDateTimeInput,
  SCHEDULE_WEEKDAYS,
  scheduleProblems,
} from '@propusk/contracts/phones';
import { FULL_NAME_MAX_LENGTH } from '@propusk/contracts/users';
import type { WeeklySchedule } from '../../db/schema.ts';
import type { RawRow } from './file.ts';

export interface ImportCandidate {
  line: number;
  /** +7XXXXXXXXXX when readable, else the cell as written. */
  phone: string;
  name: string;
  note: string;
  type: PhoneType | null;
  /** The phone's name on the barrier: the note for a resident's own number, «Имя, примечание» for others. */
  phoneName: string;
  startTime: Date | null;
  endTime: Date | null;
  schedule: WeeklySchedule | null;
  /** Extra numbers: the index of the resident's «Основной» row (the nearest one above). */
  resident: number | null;
  problems: ImportProblemCode[];
}

/** `+7` and ten digits from the usual ways of writing a Russian mobile number; null otherwise. */
export function normalizeImportPhone(text: string): string | null {
  const digits = text.replace(/[\s()\-–.]/g, '');
  if (/^\+7\d{10}$/.test(digits)) return digits;
  if (/^[78]\d{10}$/.test(digits)) return `+7${digits.slice(1)}`;
  if (/^9\d{9}$/.test(digits)) return `+7${digits}`;
  return null;
}

const wordKey = (text: string) => text.trim().toLowerCase().replaceAll('ё', 'е').replace(/\s+/g, ' ');
const TYPE_BY_WORD = new Map<string, PhoneType>([
  ['', 'primary'],
  ...(Object.entries(IMPORT_TYPE_WORDS) as [PhoneType, string][]).map(
    ([type, word]) => [wordKey(word), type] as [string, PhoneType],
  ),
  ['расписание', 'schedule'],
  ['временно', 'temporary'],
  ['постоянно', 'permanent'],
]);

/** The days part of a schedule's segment: Russian letters, commas, dashes and spaces («пн-пт, сб »). */
const DAY_LIST = /^[а-яё,\s\-–]+$/i;
const DAY_WORDS = ['пн', 'вт', 'ср', 'чт', 'пт', 'сб', 'вс'] as const;

/** «пн-пт 08:00-20:00; сб 10:00-14:00, 15:00-18:00» → the weekly map; null when it cannot be read. */
export function parseScheduleCell(text: string): WeeklySchedule | null {
  const schedule: WeeklySchedule = {};
  const segments = text
    .split(';')
    .map((segment) => segment.trim())
    .filter(Boolean);
  if (segments.length === 0) return null;
  for (const segment of segments) {
    // The days up to the first digit, the times from it (found by a search, not a lazy pattern: issue 40 item 1).
    const firstDigit = segment.search(/\d/);
    const dayWords = firstDigit > 0 ? segment.slice(0, firstDigit) : '';
    if (!DAY_LIST.test(dayWords)) return null;
    const days = new Set<number>();
    for (const part of dayWords.toLowerCase().replace(/\s/g, '').split(',')) {
      const [from, to, ...rest] = part.split(/[-–]/);
      const first = DAY_WORDS.indexOf((from ?? '') as (typeof DAY_WORDS)[number]);
      const last = to === undefined ? first : DAY_WORDS.indexOf(to as (typeof DAY_WORDS)[number]);
      if (first < 0 || last < 0 || rest.length > 0) return null;
      for (let day = first; ; day = (day + 1) % 7) {
        days.add(day);
        if (day === last) break;
      }
    }
    const intervals: { start_time: string; end_time: string }[] = [];
    const times = segment.slice(firstDigit);
    const pattern = /(\d{1,2}):(\d{2})\s*[-–]\s*(\d{1,2}):(\d{2})/g;
    const clock = (hours: string, minutes: string) => `${hours.padStart(2, '0')}:${minutes}`;
    for (const found of times.matchAll(pattern)) {
      const [, h1 = '', m1 = '', h2 = '', m2 = ''] = found;
      const start = clock(h1, m1);
      const end = clock(h2, m2);
      const valid = (value: string) => /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/.test(value);
      if (!valid(start) || !valid(end)) return null;
      intervals.push({ start_time: start, end_time: end });
    }
    if (intervals.length === 0 || times.replace(pattern, '').replace(/[,\s]/g, '') !== '') return null;
    for (const day of days) {
      const key = SCHEDULE_WEEKDAYS[day];
      if (key) schedule[key] = [...(schedule[key] ?? []), ...intervals];
    }
  }
  for (const key of SCHEDULE_WEEKDAYS)
    schedule[key]?.sort((a, b) => a.start_time.localeCompare(b.start_time));
  return schedule;
}

/** «ДД.ММ.ГГГГ ЧЧ:ММ» (or ISO 8601) in the barrier's local time; null when it is not a real date and time. */
export function parseImportDateTime(text: string, offsetMinutes: number): Date | null {
  const match = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:[ T]+(\d{1,2}):(\d{2}))?$/.exec(text.trim());
  if (!match) return parseDateTimeInput(text.trim(), offsetMinutes);
  const [, day = '', month = '', year = '', hours = '0', minutes = '0'] = match;
  const wall = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hours), Number(minutes));
  const check = new Date(wall);
  if (
    check.getUTCDate() !== Number(day) ||
    check.getUTCMonth() !== Number(month) - 1 ||
    Number(hours) > 23 ||
    Number(minutes) > 59
  ) {
    return null;
  }
  return new Date(wall - offsetMinutes * 60_000);
}

/** Reads every row; problems that need the database (accounts, limits, slots) are added by the service. */
export function readImportRows(rows: readonly RawRow[], offsetMinutes: number, now: Date): ImportCandidate[] {
  const seen = new Set<string>();
  let resident: number | null = null;
  return rows.map((raw, index) => {
    const cell = (key: keyof RawRow['cells']) => (raw.cells[key] ?? '').trim();
    const problems: ImportProblemCode[] = [];
    const normalized = normalizeImportPhone(cell('phone'));
    if (!normalized) problems.push('phone_invalid');
    else if (seen.has(normalized)) problems.push('phone_duplicate_file');
    if (normalized) seen.add(normalized);

    const type = TYPE_BY_WORD.get(wordKey(cell('type'))) ?? null;
    if (!type) problems.push('type_invalid');
    // The cells become a full name and a phone name: their length first, then the clean-text rule of those
    // fields (issue 29 part 6; issue 40 item 1: the rule reads only text of a field's size).
    const name = collapseSpaces(cell('name'));
    const note = collapseSpaces(cell('note'));
    const phoneName = type === 'primary' ? note : [name, note].filter(Boolean).join(', ');
    if (phoneName.length > PHONE_NAME_MAX_LENGTH || name.length > FULL_NAME_MAX_LENGTH) {
      problems.push('name_too_long');
    } else if (!isCleanText(name) || !isCleanText(note)) problems.push('text_not_allowed');
    if (type && type !== 'primary' && phoneName === '') problems.push('name_required');

    let startTime: Date | null = null;
    let endTime: Date | null = null;
    if (type === 'temporary') {
      if (!cell('start') || !cell('end')) problems.push('window_required');
      else {
        startTime = parseImportDateTime(cell('start'), offsetMinutes);
        endTime = parseImportDateTime(cell('end'), offsetMinutes);
        if (!startTime || !endTime) problems.push('window_format');
        else if (startTime >= endTime) problems.push('window_order');
        else if (endTime <= now) problems.push('window_past');
      }
    }
    let schedule: WeeklySchedule | null = null;
    if (type === 'schedule') {
      if (!cell('schedule')) problems.push('schedule_required');
      else {
        schedule = parseScheduleCell(cell('schedule'));
        if (!schedule) problems.push('schedule_format');
        else if (scheduleProblems(schedule).length > 0) problems.push('schedule_invalid');
      }
    }

    let owner: number | null = null;
    if (type === 'primary') resident = index;
    else if (type) {
      owner = resident;
      if (owner === null) problems.push('no_resident');
    }
    return {
      line: raw.line,
      phone: normalized ?? cell('phone'),
      name,
      note,
      type,
      phoneName,
      startTime,
      endTime,
      schedule,
      resident: owner,
      problems,
    };
  });
}
