/**
 * Barriers on the owner's side (spec.md section 7; DESIGN.md section 5): creation, his list and one barrier
 * with its device's state, settings, deletion, limits. Staff reach what their role allows
 * (`requireBarrierPermission`). A change that shows in the public list tells the app's PublicBarrierSearch.
 */

import type {
  AdminBarrier,
  BarrierListQuery,
  CreateBarrierBody,
  UpdateBarrierBody,
} from '@propusk/contracts/barriers';
import { BARRIER_MESSAGES } from '@propusk/contracts/barriers';
import {
  LIMIT_MESSAGES,
  type Limits,
  MINUTES_PER_DAY,
  PHONE_COUNT_LIMIT_FIELDS,
  type UpdateLimitsBody,
} from '@propusk/contracts/limits';
import { hasAlarms } from '@propusk/devices/alarms';
import {
  definedModelId,
  getSheet,
  isAvailableDeviceModel,
  isDeviceModel,
  isValidDevicePassword,
} from '@propusk/devices/models';
import { deviceSummaries } from '../../engine/log/index.ts';
import { syncBarrierDevice } from '../../engine/plan/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict, FieldError } from '../../lib/errors.ts';
import type { AuthenticatedUser, SessionInRead } from '../../plugins/authenticate.ts';
import { barrierNotFound, paginate, requireBarrierPermission } from '../barrier-policy/policy.ts';
import { ownDefinedModelForBarrier } from '../device-models/service.ts';
import { deviceCapacity } from '../phones/phone-admission.ts';
import { deactivatePhonesLocked, lockLiveBarrier } from '../phones/phone-changes.ts';
import { grantAccessLocked } from './access-changes.ts';
import * as adminRepository from './admin-repository.ts';
import { adminBarrierView, limitsWithBudget, toAdminBarrier } from './barrier-views.ts';
import type { PublicBarrierSearch } from './public-search.ts';
import * as repository from './repository.ts';

async function ownedBarrierView(deps: Dependencies, admin: AuthenticatedUser, barrierId: number) {
  const row = await adminRepository.findOwnedBarrierRow(deps.db, barrierId, admin.id);
  if (!row) throw barrierNotFound();
  return adminBarrierView(deps, row);
}

export async function createBarrier(
  deps: Dependencies,
  search: PublicBarrierSearch,
  admin: AuthenticatedUser,
  body: CreateBarrierBody,
): Promise<AdminBarrier> {
  const { db } = deps;
  const model = body.device_model;
  // A model he defined (docs/decisions/0039): his own only; another's is refused as an unknown model.
  const definedOwn =
    definedModelId(model) === null ? null : await ownDefinedModelForBarrier(db, admin.id, model, false);
  // The barrier form's list (DEVICE_MODEL_OPTIONS): a model the engine cannot confirm yet is refused.
  if (definedOwn === false || !isAvailableDeviceModel(model))
    throw new FieldError({ device_model: [BARRIER_MESSAGES.deviceModel] });
  const sheet = getSheet(model);
  const fields: Record<string, string[]> = {};
  if (sheet.hasPassword && !isValidDevicePassword(model, body.device_password)) {
    fields.device_password = [BARRIER_MESSAGES.devicePassword];
  }
  // The unit's documented capacity (on number-addressed models slotCount is only our numbering).
  if (body.device_phones_amount > sheet.capacity) {
    fields.device_phones_amount = [
      BARRIER_MESSAGES.phonesAmountOverSlots(definedOwn ? sheet.label : model, sheet.capacity),
    ];
  }
  if (Object.keys(fields).length > 0) throw new FieldError(fields);

  const now = deps.clock.now();
  const barrierId = await db.transaction(async (tx) => {
    const owner = await repository.findOwner(tx, admin.id);
    if (!owner) throw barrierNotFound();
    // His defined model, held for share until the barrier is written: a delete of it waits, then refuses.
    if (definedOwn && !(await ownDefinedModelForBarrier(tx, admin.id, model, true)))
      throw new FieldError({ device_model: [BARRIER_MESSAGES.deviceModel] });
    // The number is refused only once a unit confirmed it on another barrier: an unconfirmed claim tells
    // nothing and blocks nobody (the first confirmed wins; issue 40 item 4, decision 0030).
    if (await repository.devicePhoneConfirmedElsewhere(tx, body.device_phone))
      throw conflict('device_phone_taken');
    const id = await repository.insertBarrier(tx, {
      ownerId: admin.id,
      address: body.address,
      devicePhone: body.device_phone,
      deviceModel: model,
      devicePasswordEncrypted:
        sheet.hasPassword && body.device_password ? deps.secrets.encrypt(body.device_password) : null,
      devicePhonesAmount: body.device_phones_amount,
      // The unit sends its power-failure SMS to slot 1 only: the gateway's number goes there, so that
      // it reaches the server (issue 30 item 5; residents then start at slot 7 where there is room).
      deviceGatewayNumber:
        deps.config.DEVICE_GATEWAY_PHONE && hasAlarms(model) ? deps.config.DEVICE_GATEWAY_PHONE : null,
      additionalInfo: body.additional_info ?? '',
      isPublic: body.is_public,
      createdAt: now,
      updatedAt: now,
    });
    const locked = await lockLiveBarrier(tx, id);
    await grantAccessLocked(tx, deps, locked, owner, { author: 'admin', userId: admin.id });
    await syncBarrierDevice(tx, deps, id);
    return id;
  });
  search.changed();
  deps.notifyDeviceCommands([barrierId]);
  return ownedBarrierView(deps, admin, barrierId);
}

export async function listOwnedBarriers(deps: Dependencies, session: SessionInRead, query: BarrierListQuery) {
  const { db } = deps;
  const { rows, total, sessionLive } = await adminRepository.listOwnedBarriers(
    db,
    session.userId,
    query,
    session,
  );
  await session.settle(sessionLive);
  // One statement for the whole page's device states (the dangers came with the page).
  const states = await deviceSummaries(
    db,
    deps,
    rows.map((row) => row.id),
  );
  return paginate(
    'barriers',
    rows.map((row) => toAdminBarrier(row, states.get(row.id))),
    total,
    query,
  );
}

export async function getOwnedBarrier(
  deps: Dependencies,
  admin: AuthenticatedUser,
  barrierId: number,
): Promise<AdminBarrier> {
  await requireBarrierPermission(deps.db, admin.id, barrierId, 'barrier.view');
  return ownedBarrierView(deps, admin, barrierId);
}

export async function updateBarrier(
  deps: Dependencies,
  search: PublicBarrierSearch,
  admin: AuthenticatedUser,
  barrierId: number,
  body: UpdateBarrierBody,
): Promise<AdminBarrier> {
  const barrier = await requireBarrierPermission(deps.db, admin.id, barrierId, 'barrier.edit');
  const values: Parameters<typeof repository.updateBarrier>[2] = { updatedAt: deps.clock.now() };
  if (body.additional_info !== undefined) values.additionalInfo = body.additional_info ?? '';
  if (body.is_public !== undefined) values.isPublic = body.is_public;
  if (body.device_password !== undefined && isDeviceModel(barrier.deviceModel)) {
    // Models without a password ignore it; the stored value is corrected without any SMS.
    if (getSheet(barrier.deviceModel).hasPassword) {
      values.devicePasswordEncrypted = deps.secrets.encrypt(body.device_password);
    }
  }
  await repository.updateBarrier(deps.db, barrierId, values);
  if (values.isPublic !== undefined) search.changed();
  return ownedBarrierView(deps, admin, barrierId);
}

export async function deleteBarrier(
  deps: Dependencies,
  search: PublicBarrierSearch,
  admin: AuthenticatedUser,
  barrierId: number,
): Promise<void> {
  await requireBarrierPermission(deps.db, admin.id, barrierId, 'barrier.delete');
  await deps.db.transaction(async (tx) => {
    const locked = await lockLiveBarrier(tx, barrierId);
    await deactivatePhonesLocked(
      tx,
      deps,
      locked.id,
      {},
      { author: 'admin', userId: admin.id },
      'barrier_deleted',
    );
    await repository.markBarrierDeleted(tx, locked.id, deps.clock.now());
    await syncBarrierDevice(tx, deps, locked.id, { enforceWeeklyLimit: false });
  });
  search.changed();
  deps.notifyDeviceCommands([barrierId]);
}

export async function getOwnedLimits(
  deps: Dependencies,
  admin: AuthenticatedUser,
  barrierId: number,
): Promise<Limits> {
  await requireBarrierPermission(deps.db, admin.id, barrierId, 'barrier.view');
  return limitsWithBudget(deps, barrierId, null);
}

export async function updateLimits(
  deps: Dependencies,
  admin: AuthenticatedUser,
  barrierId: number,
  body: UpdateLimitsBody,
): Promise<Limits> {
  const barrier = await requireBarrierPermission(deps.db, admin.id, barrierId, 'barrier.edit');
  const capacity = deviceCapacity(barrier);
  const fields: Record<string, string[]> = {};
  for (const field of PHONE_COUNT_LIMIT_FIELDS) {
    const value = body[field];
    if (typeof value === 'number' && value > capacity) fields[field] = [LIMIT_MESSAGES.overDevice(capacity)];
  }
  if (typeof body.schedule_interval_limit === 'number' && body.schedule_interval_limit > MINUTES_PER_DAY) {
    fields.schedule_interval_limit = [LIMIT_MESSAGES.overDay];
  }
  if (Object.keys(fields).length > 0) throw new FieldError(fields);
  await repository.upsertLimits(deps.db, barrierId, body, deps.clock.now());
  return limitsWithBudget(deps, barrierId, null);
}
