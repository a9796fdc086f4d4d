/**
 * Change history (DESIGN.md sections 4, 5): a user sees the actions on his own phones of a barrier he has
 * access to; the owner (and his staff whose role holds `history.view`) sees everything on the barrier.
 */

import type { Action, ActionDetail, ActionListQuery } from '@propusk/contracts/actions';
import { parseDateTimeInput } from '@propusk/contracts/phones';
import { CHECK_SETTING_LABELS, STAFF_CHANGE_LABELS } from '@propusk/contracts/texts/history';
import { STAFF_ROLE_LABELS } from '@propusk/contracts/texts/staff';
import { getSheet, isDeviceModel } from '@propusk/devices/models';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import type { AuthenticatedUser, SessionInRead } from '../../plugins/authenticate.ts';
import { paginate, requireBarrierAccess, requireBarrierPermission } from '../barrier-policy/policy.ts';
import * as repository from './repository.ts';

export type Side = 'user' | 'admin';

const actionNotFound = () => notFound('action_not_found');

/** The Russian name of the setting a `barrier_setting` action sent (or of the device check it records). */
export function settingName(row: repository.ActionRow): string | null {
  if (row.actionType !== 'barrier_setting') return null;
  const value = row.newValue as Record<string, unknown> | null;
  const setting = typeof value?.setting === 'string' ? value.setting : null;
  if (!setting) return null;
  if (Object.hasOwn(STAFF_CHANGE_LABELS, setting)) return staffChangeName(setting, value);
  if (Object.hasOwn(CHECK_SETTING_LABELS, setting)) return CHECK_SETTING_LABELS[setting] ?? null;
  if (!isDeviceModel(row.deviceModel)) return null;
  const settings = getSheet(row.deviceModel).settings;
  return Object.hasOwn(settings, setting) ? (settings[setting]?.name ?? null) : null;
}

/** A staff change (barrier-staff/service.ts): what changed, whom, and his role, in Russian. */
function staffChangeName(setting: string, value: Record<string, unknown> | null): string {
  const name = typeof value?.staff_name === 'string' && value.staff_name ? value.staff_name : null;
  const role = typeof value?.role === 'string' ? STAFF_ROLE_LABELS[value.role] : undefined;
  return [STAFF_CHANGE_LABELS[setting], name, role ? `(${role.toLowerCase()})` : null]
    .filter(Boolean)
    .join(' ');
}

function toAction(row: repository.ActionRow): Action {
  return {
    id: row.id,
    action_type: row.actionType,
    created_at: apiDateTime(row.createdAt),
    author: row.author,
    reason: row.reason,
    phone: row.phoneId,
    barrier: row.barrierId,
    phone_number: row.phoneNumber,
    author_name: row.author === 'system' ? null : row.authorName,
    setting_name: settingName(row),
  };
}

const asRecord = (value: unknown) =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** A filter's date-time as typed on the barrier's wall clock (DEVICE_TIMEZONE_OFFSET_MINUTES). */
const parseTime = (deps: Pick<Dependencies, 'config'>, text: string | undefined) =>
  text ? (parseDateTimeInput(text, deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES) ?? undefined) : undefined;

/**
 * A user reads the history of his own phones on a barrier he has access to, and also after he lost it (left,
 * removed, blocked): the list only ever holds his own numbers, and it is where he sees why they went.
 */
async function requireOwnHistory(deps: Pick<Dependencies, 'db'>, userId: number, barrierId: number) {
  try {
    await requireBarrierAccess(deps.db, userId, barrierId);
  } catch (error) {
    const { total } = await repository.listActions(
      deps.db,
      { barrierId, phoneOwnerId: userId },
      { page: 1, page_size: 1 },
    );
    if (total === 0) throw error;
  }
}

/**
 * The statement itself is scoped to what the caller may read: his own phones' actions (user side), or
 * nothing unless the barrier is his live barrier (administrator side). So a non-empty answer is his to
 * see, and the access check runs only when the answer is empty, to tell an empty history from a
 * barrier he may not read (404/403, exactly as checking first would).
 */
export async function listActions(
  deps: Pick<Dependencies, 'db' | 'config'>,
  side: Side,
  session: SessionInRead,
  barrierId: number,
  query: ActionListQuery,
) {
  const { db } = deps;
  const callerId = session.userId;
  const { rows, total, sessionLive } = await repository.listActions(
    db,
    {
      barrierId,
      ...(side === 'user'
        ? { phoneOwnerId: callerId }
        : { barrierOwnerId: callerId, phoneOwnerId: query.user }),
      actionType: query.action_type,
      from: parseTime(deps, query.created_from),
      to: parseTime(deps, query.created_to),
    },
    query,
    session,
  );
  await session.settle(sessionLive);
  if (total === 0) {
    if (side === 'user') await requireOwnHistory(deps, callerId, barrierId);
    else await requireBarrierPermission(db, callerId, barrierId, 'history.view');
  }
  return paginate('actions', rows.map(toAction), total, query);
}

export async function getAction(
  deps: Pick<Dependencies, 'db'>,
  side: Side,
  caller: AuthenticatedUser,
  actionId: number,
): Promise<ActionDetail> {
  const { db } = deps;
  const found = await repository.findAction(db, actionId);
  if (!found) throw actionNotFound();
  if (side === 'user' && found.action.phoneOwnerId !== caller.id) throw actionNotFound();
  if (side === 'admin') {
    // A barrier he holds nothing on hides its actions (404); his role without the history is 403.
    await requireBarrierPermission(db, caller.id, found.action.barrierId, 'history.view').catch(
      (error: unknown) => {
        throw error instanceof HttpError && error.statusCode === 404 ? actionNotFound() : error;
      },
    );
  }
  return {
    ...toAction(found.action),
    old_value: asRecord(found.action.oldValue),
    new_value: asRecord(found.action.newValue),
  };
}
