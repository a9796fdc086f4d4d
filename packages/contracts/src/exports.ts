/**
 * Exports of a barrier's users with their phones, and of its history with the history list's filters
 * (issue 14 part 3): CSV (UTF-8 with a byte order mark, `;` between fields, CRLF: what Excel with Russian
 * regional settings opens as columns with Cyrillic intact) or XLSX.
 */
import { z } from 'zod';
import { actionFilterFields, noReversedRange } from './actions.ts';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** At most this many rows in one export; beyond it the call is refused (`export_too_large`). */
export const EXPORT_ROW_LIMIT = 50_000;

/** Absent: CSV. */
const formatField = z.enum(EXPORT_FORMATS, { error: 'Format must be csv or xlsx.' }).default('csv');

export const usersExportQuerySchema = z.object({ format: formatField });
export type UsersExportQuery = z.infer<typeof usersExportQuerySchema>;

/** Exactly the history list's filters (without its page), and the format. */
export const actionsExportQuerySchema = z
  .object({ format: formatField, ...actionFilterFields })
  .refine(...noReversedRange);
export type ActionsExportQuery = z.infer<typeof actionsExportQuerySchema>;

export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export const USERS_EXPORT_HEADERS = [
  'Пользователь',
  'Телефон пользователя',
  'Роль',
  'Доступ с',
  'Номер',
  'Название номера',
  'Тип номера',
  'Срок или расписание',
  'Состояние',
] as const;

export const ACTIONS_EXPORT_HEADERS = [
  'Дата и время',
  'Действие',
  'Причина',
  'Номер',
  'Автор',
  'Имя автора',
  'Настройка',
] as const;

/** Who made a change, as the history export writes it. */
export const ACTION_AUTHOR_EXPORT_LABELS: Readonly<Record<string, string>> = {
  user: 'Пользователь',
  admin: 'Администратор',
  system: 'Система',
};
