/**
 * Exports (issue 14 part 3): a barrier's users with their phones (`users.manage`) and its history with the
 * history list's own filters (`history.view`), as CSV or XLSX. The permission comes first; the rows are
 * counted before anything is written, so that an export over EXPORT_ROW_LIMIT is a clear 400
 * (`export_too_large`) and not a cut file; then they are read EXPORT_PAGE_SIZE at a time. CSV streams those
 * pages; XLSX is assembled from them in memory (bounded by the cap).
 */
import type { Readable } from 'node:stream';
import {
  ACTION_AUTHOR_EXPORT_LABELS,
  ACTIONS_EXPORT_HEADERS,
  type ActionsExportQuery,
  EXPORT_ROW_LIMIT,
  type ExportFormat,
  USERS_EXPORT_HEADERS,
} from '@propusk/contracts/exports';
import { parseDateTimeInput } from '@propusk/contracts/phones';
import { NAME_FALLBACK } from '@propusk/contracts/texts/common';
import { ACTION_REASON_LABELS, ACTION_TYPE_LABELS } from '@propusk/contracts/texts/history';
import { PHONE_STATUS_LABELS, PHONE_TYPE_LABELS } from '@propusk/contracts/texts/phones';
import { ROLE_LABELS } from '@propusk/contracts/texts/profile';
import type { Dependencies } from '../../lib/dependencies.ts';
import { badRequest } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import * as actionsRepository from '../actions/repository.ts';
import { settingName } from '../actions/service.ts';
import { requireBarrierPermission } from '../barrier-policy/policy.ts';
import {
  type Cells,
  contentDisposition,
  csvStream,
  formatLocalDateTime,
  formatPeriod,
  formatSchedule,
  plainText,
  xlsxBuffer,
} from './format.ts';
import * as repository from './repository.ts';

export const EXPORT_PAGE_SIZE = 1000;

export interface ExportFile {
  format: ExportFormat;
  disposition: string;
  body: Readable | Buffer;
}

const tooLarge = () => badRequest('export_too_large', undefined, { limit: EXPORT_ROW_LIMIT });

async function write(
  deps: Pick<Dependencies, 'clock' | 'config'>,
  format: ExportFormat,
  name: string,
  sheet: string,
  headers: readonly string[],
  widths: number[],
  pages: AsyncIterable<Cells[]>,
): Promise<ExportFile> {
  const disposition = contentDisposition(
    name,
    format,
    deps.clock.now(),
    deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
  );
  const body = format === 'csv' ? csvStream(headers, pages) : await xlsxBuffer(sheet, headers, pages, widths);
  return { format, disposition, body };
}

export async function exportBarrierUsers(
  deps: Pick<Dependencies, 'db' | 'clock' | 'config'>,
  admin: AuthenticatedUser,
  barrierId: number,
  format: ExportFormat,
): Promise<ExportFile> {
  const { db } = deps;
  const offset = deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES;
  const barrier = await requireBarrierPermission(db, admin.id, barrierId, 'users.manage');
  const total = await repository.countUserPhoneRows(db, barrier.id);
  if (total > EXPORT_ROW_LIMIT) throw tooLarge();
  async function* pages(): AsyncGenerator<Cells[]> {
    for (let start = 0; start < total; start += EXPORT_PAGE_SIZE) {
      const rows = await repository.listUserPhoneRows(db, barrier.id, EXPORT_PAGE_SIZE, start);
      if (rows.length === 0) return;
      yield rows.map((row) => [
        plainText(row.fullName || NAME_FALLBACK),
        row.userPhone,
        ROLE_LABELS[row.userId === barrier.ownerId ? 'admin' : 'user'] ?? '',
        formatLocalDateTime(row.accessSince, offset),
        row.phone ?? '',
        plainText(row.phoneName),
        row.type ? (PHONE_TYPE_LABELS[row.type] ?? row.type) : '',
        row.type === 'schedule'
          ? formatSchedule(row.schedule)
          : row.type === 'temporary'
            ? formatPeriod(row.startTime, row.endTime, offset)
            : row.type
              ? 'Бессрочно'
              : '',
        row.status ? (PHONE_STATUS_LABELS[row.status] ?? row.status) : '',
      ]);
    }
  }
  return write(
    deps,
    format,
    `propusk-${barrier.id}-users`,
    'Пользователи',
    USERS_EXPORT_HEADERS,
    [28, 16, 16, 17, 16, 22, 15, 48, 24],
    pages(),
  );
}

export async function exportBarrierHistory(
  deps: Pick<Dependencies, 'db' | 'clock' | 'config'>,
  admin: AuthenticatedUser,
  barrierId: number,
  query: ActionsExportQuery,
): Promise<ExportFile> {
  const { db } = deps;
  const offset = deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES;
  const barrier = await requireBarrierPermission(db, admin.id, barrierId, 'history.view');
  const parse = (text: string | undefined) =>
    text ? (parseDateTimeInput(text, offset) ?? undefined) : undefined;
  // What happens while the export is read is not in it: the end is held at the moment it started, so the
  // pages (newest first) do not shift under new actions.
  const startedAt = deps.clock.now();
  const requestedTo = parse(query.created_to);
  const filter: actionsRepository.ActionFilter = {
    barrierId: barrier.id,
    barrierOwnerId: barrier.ownerId,
    phoneOwnerId: query.user,
    actionType: query.action_type,
    from: parse(query.created_from),
    to: requestedTo && requestedTo < startedAt ? requestedTo : startedAt,
  };
  const total = await actionsRepository.countActions(db, filter);
  if (total > EXPORT_ROW_LIMIT) throw tooLarge();
  const toCells = (row: actionsRepository.ActionRow): Cells => [
    formatLocalDateTime(row.createdAt, offset),
    ACTION_TYPE_LABELS[row.actionType] ?? row.actionType,
    row.reason ? (ACTION_REASON_LABELS[row.reason] ?? row.reason) : '',
    row.phoneNumber ?? '',
    ACTION_AUTHOR_EXPORT_LABELS[row.author] ?? row.author,
    row.author === 'system' ? '' : plainText(row.authorName),
    settingName(row) ?? '',
  ];
  async function* pages(): AsyncGenerator<Cells[]> {
    let after: { cursorAt: string; id: number } | null = null;
    for (let read = 0; read < total; ) {
      const rows = await actionsRepository.listActionsAfter(db, filter, after, EXPORT_PAGE_SIZE);
      const last = rows.at(-1);
      if (!last) return;
      read += rows.length;
      after = { cursorAt: last.cursorAt, id: last.id };
      yield rows.map(toCells);
    }
  }
  return write(
    deps,
    format(query),
    `propusk-${barrier.id}-history`,
    'История',
    ACTIONS_EXPORT_HEADERS,
    [17, 22, 24, 16, 16, 28, 28],
    pages(),
  );
}

const format = (query: ActionsExportQuery) => query.format;
