/**
 * «Мои данные» (152-ФЗ art. 14, issue 28 part 6; docs/decisions/0022): the caller's own rows as one JSON
 * document, or the same document as a CSV of `раздел; запись; поле; значение` lines (one per value, so every
 * part fits one table). Keys and values of the JSON are the API's; the CSV names sections, fields and coded
 * values in Russian and writes times as local `ДД.ММ.ГГГГ ЧЧ:ММ` (issue 41), like the exports.
 */
import { ACTION_AUTHOR_EXPORT_LABELS } from '@propusk/contracts/exports';
import type { MyDataFormat } from '@propusk/contracts/privacy';
import { ACCESS_REQUEST_STATUS_LABELS } from '@propusk/contracts/texts/access-requests';
import { ACTION_REASON_LABELS, ACTION_TYPE_LABELS } from '@propusk/contracts/texts/history';
import { PHONE_STATUS_LABELS, PHONE_TYPE_LABELS } from '@propusk/contracts/texts/phones';
import { PHONE_PRIVACY_LABELS, ROLE_LABELS } from '@propusk/contracts/texts/profile';
import {
  OPENING_FAILURE_LABELS,
  OPENING_STATUS_LABELS,
  OPENING_VIA_LABELS,
} from '@propusk/contracts/texts/relay';
import { stringify } from 'csv-stringify/sync';
import type { WeeklySchedule } from '../../db/schema.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { unauthorized } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { formatLocalDateTime, formatSchedule, plainText } from '../exports/format.ts';
import { type MyDataRows, readMyData } from './my-data-repository.ts';

type Value = string | number | boolean | null | Value[] | { [key: string]: Value };
type Document = Record<string, Value>;

const date = (value: Date | null) => apiDateTime(value);

export function myDataDocument(rows: MyDataRows, now: Date, policyVersion: string): Document {
  const profile = rows.profile;
  return {
    generated_at: date(now),
    current_policy_version: policyVersion,
    profile: profile
      ? {
          id: profile.id,
          phone: profile.phone,
          full_name: profile.fullName,
          phone_privacy: profile.phonePrivacy,
          role: profile.role,
          created_at: date(profile.createdAt),
          updated_at: date(profile.updatedAt),
        }
      : null,
    phones: rows.phones.map((row) => ({
      id: row.id,
      barrier_id: row.barrierId,
      barrier_address: row.barrierAddress,
      phone: row.phone,
      name: row.name,
      type: row.type,
      start_time: date(row.startTime),
      end_time: date(row.endTime),
      schedule: (row.schedule ?? null) as Value,
      status: row.status,
      is_active: row.isActive,
      created_at: date(row.createdAt),
      deleted_at: date(row.deletedAt),
    })),
    access_requests: rows.requests.map((row) => ({
      id: row.id,
      barrier_id: row.barrierId,
      barrier_address: row.barrierAddress,
      initiator: row.initiator,
      status: row.status,
      created_at: date(row.createdAt),
      updated_at: date(row.updatedAt),
    })),
    history: rows.history.map((row) => ({
      id: row.id,
      barrier_id: row.barrierId,
      phone_id: row.phoneId,
      action_type: row.actionType,
      author: row.author,
      reason: row.reason,
      old_value: (row.oldValue ?? null) as Value,
      new_value: (row.newValue ?? null) as Value,
      created_at: date(row.createdAt),
    })),
    openings: rows.openings.map((row) => ({
      id: row.id,
      barrier_id: row.barrierId,
      barrier_address: row.barrierAddress,
      via: row.via,
      requested_at: date(row.requestedAt),
      status: row.status,
      failure: row.failure,
      confirmed_at: date(row.confirmedAt),
    })),
    guest_passes: rows.guestPasses.map((row) => ({
      id: row.id,
      barrier_id: row.barrierId,
      barrier_address: row.barrierAddress,
      note: row.note,
      start_time: date(row.startTime),
      end_time: date(row.endTime),
      status: row.status,
      used_phone: row.usedPhone,
      used_at: date(row.usedAt),
      revoked_at: date(row.revokedAt),
      created_at: date(row.createdAt),
    })),
    consents: rows.consents.map((row) => ({
      policy_version: row.policyVersion,
      accepted_at: date(row.acceptedAt),
    })),
    sessions: rows.sessions.map((row) => ({
      created_at: date(row.createdAt),
      last_used_at: date(row.lastUsedAt),
      expires_at: date(row.expiresAt),
      revoked_at: date(row.revokedAt),
    })),
  };
}

const SECTION_LABELS: Record<string, string> = {
  generated_at: 'Файл',
  current_policy_version: 'Файл',
  profile: 'Профиль',
  phones: 'Номера',
  access_requests: 'Заявки и приглашения',
  history: 'История номеров',
  openings: 'Открытия шлагбаума',
  guest_passes: 'Гостевые пропуска',
  consents: 'Согласия с политикой',
  sessions: 'Входы (сеансы)',
};

const FIELD_LABELS: Record<string, string> = {
  generated_at: 'Сформирован',
  current_policy_version: 'Действующая версия политики',
  id: 'Номер записи',
  phone: 'Телефон',
  full_name: 'ФИО',
  phone_privacy: 'Видимость номера',
  role: 'Роль',
  created_at: 'Создано',
  updated_at: 'Изменено',
  barrier_id: 'Шлагбаум (номер)',
  barrier_address: 'Адрес шлагбаума',
  name: 'Имя',
  type: 'Тип',
  start_time: 'Начало',
  end_time: 'Окончание',
  schedule: 'Расписание',
  status: 'Статус',
  is_active: 'Действует',
  deleted_at: 'Удалено',
  initiator: 'Кто начал',
  phone_id: 'Номер (запись)',
  action_type: 'Действие',
  author: 'Кто изменил',
  reason: 'Причина',
  old_value: 'Было',
  new_value: 'Стало',
  via: 'Откуда',
  requested_at: 'Запрошено',
  failure: 'Причина неудачи',
  confirmed_at: 'Подтверждено',
  note: 'Заметка',
  used_phone: 'Номер гостя',
  used_at: 'Использован',
  revoked_at: 'Отозван',
  policy_version: 'Версия политики',
  accepted_at: 'Принято',
  last_used_at: 'Последнее обращение',
  expires_at: 'Истекает',
};

const PHONE = /^\+7\d{10}$/;

/**
 * The Russian words of the API's codes, by section and field (issue 41: the CSV held `user`, `primary`). A
 * code with no word here (one added later) is written as it is.
 */
const VALUE_LABELS: Record<string, Readonly<Record<string, string>>> = {
  'profile.role': ROLE_LABELS,
  'profile.phone_privacy': PHONE_PRIVACY_LABELS,
  'phones.type': PHONE_TYPE_LABELS,
  'phones.status': PHONE_STATUS_LABELS,
  'access_requests.status': ACCESS_REQUEST_STATUS_LABELS,
  'access_requests.initiator': { user: 'Житель (заявка)', admin: 'Администратор (приглашение)' },
  'history.action_type': ACTION_TYPE_LABELS,
  'history.reason': ACTION_REASON_LABELS,
  'history.author': ACTION_AUTHOR_EXPORT_LABELS,
  'openings.via': OPENING_VIA_LABELS,
  'openings.status': OPENING_STATUS_LABELS,
  'openings.failure': OPENING_FAILURE_LABELS,
  'guest_passes.status': { created: 'Создан', used: 'Использован', revoked: 'Отозван', expired: 'Истёк' },
};

/** Fields holding a moment (`…_at`, `…_time`): written as local time, `23.11.2026 19:05`, like the exports. */
const MOMENT = /(_at|_time)$/;

/** One value as a person reads it: Russian words for codes, local times, «да»/«нет», a schedule by days. */
function cell(section: string, field: string, value: Value, offsetMinutes: number): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'да' : 'нет';
  if (field === 'schedule' && typeof value === 'object' && !Array.isArray(value))
    return formatSchedule(value as unknown as WeeklySchedule);
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  if (typeof value === 'string' && MOMENT.test(field) && !Number.isNaN(Date.parse(text)))
    return formatLocalDateTime(new Date(text), offsetMinutes);
  const label = VALUE_LABELS[`${section}.${field}`]?.[text];
  if (label) return label;
  return PHONE.test(text) ? text : plainText(text);
}

export const MY_DATA_CSV_HEADERS = ['Раздел', 'Запись', 'Поле', 'Значение'] as const;

/** The CSV of the document; times in the zone `offsetMinutes` east of UTC (the deployment's). */
export function myDataCsv(document: Document, offsetMinutes: number): string {
  const lines: string[][] = [[...MY_DATA_CSV_HEADERS]];
  for (const [key, part] of Object.entries(document)) {
    const section = SECTION_LABELS[key] ?? key;
    const value = (field: string, item: Value) => cell(key, field, item, offsetMinutes);
    if (Array.isArray(part)) {
      part.forEach((record, index) => {
        for (const [field, item] of Object.entries(record as Record<string, Value>)) {
          lines.push([section, String(index + 1), FIELD_LABELS[field] ?? field, value(field, item)]);
        }
      });
    } else if (part !== null && typeof part === 'object') {
      for (const [field, item] of Object.entries(part)) {
        lines.push([section, '1', FIELD_LABELS[field] ?? field, value(field, item)]);
      }
    } else {
      lines.push([section, '', FIELD_LABELS[key] ?? key, value(key, part)]);
    }
  }
  return stringify(lines, { delimiter: ';', bom: true, record_delimiter: 'windows' });
}

export interface MyDataFile {
  contentType: string;
  disposition: string;
  body: string;
}

export async function downloadMyData(
  deps: Dependencies,
  caller: AuthenticatedUser,
  format: MyDataFormat,
): Promise<MyDataFile> {
  const now = deps.clock.now();
  const rows = await readMyData(deps.db, caller.id);
  if (!rows.profile) throw unauthorized();
  const document = myDataDocument(rows, now, deps.config.privacyPolicy.version);
  deps.logger.info({ userId: caller.id, format }, 'own data downloaded');
  // `attachment` with an ASCII name, dated in the deployment's zone, as the exports are (exports/format.ts).
  const offsetMinutes = deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES;
  const offsetMs = offsetMinutes * 60_000;
  const day = new Date(now.getTime() + offsetMs).toISOString().slice(0, 10);
  const disposition = `attachment; filename="propusk-my-data-${day}.${format}"`;
  return format === 'csv'
    ? { contentType: 'text/csv; charset=utf-8', disposition, body: myDataCsv(document, offsetMinutes) }
    : {
        contentType: 'application/json; charset=utf-8',
        disposition,
        body: `${JSON.stringify(document, null, 2)}\n`,
      };
}
