/**
 * Device settings (DESIGN.md section 6): the settings of the barrier's model as the settings screen shows
 * them, and sending one: checked against the model's sheet, stored as a device command in the same
 * transaction as its `barrier_setting` history row, sent by the device worker after commit.
 */

import type { SettingCommand, SettingCommandFailure } from '@propusk/contracts/settings';
import { type DeviceModel, getSheet, isDeviceModel } from '@propusk/devices/models';
import {
  blockedRelaySettings,
  type DialectEvidence,
  relaySettingDecision,
} from '@propusk/devices/relay-safety';
import {
  changesPasswordTo,
  checkSettingParams,
  getSettings,
  hasSetting,
  type SettingView,
} from '@propusk/devices/settings';
import type { Executor } from '../../db/database.ts';
import { assertWeeklySmsBudget } from '../../engine/budget/index.ts';
import { DEVICE_NOT_UNDERSTOOD, DEVICE_REFUSED_PASSWORD } from '../../engine/log/index.ts';
import {
  isSecretSetting,
  loadCommittedSms,
  lockBarrier,
  type SettingPayload,
  sealSettingPayload,
} from '../../engine/plan/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { badRequest, conflict, HttpError, notFound } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { requireBarrierPermission } from '../barrier-policy/policy.ts';
import * as repository from './repository.ts';

/** A live barrier on which the administrator manages the device's settings (404 / 403 as the policy says). */
async function loadOwnedBarrier(executor: Executor, user: AuthenticatedUser, barrierId: number) {
  const found = await requireBarrierPermission(executor, user.id, barrierId, 'settings.manage');
  const barrier = {
    id: found.id,
    model: found.deviceModel,
    passwordEncrypted: found.devicePasswordEncrypted,
  };
  if (!isDeviceModel(barrier.model)) throw notFound('barrier_not_found');
  return { ...barrier, model: barrier.model as DeviceModel };
}

/**
 * What the server knows of the unit's command dialect: whether a device check of this barrier finished, i.e.
 * the unit answered the sheet's read-back query in the sheet's language (`@propusk/devices/relay-safety`).
 * The model of a barrier is fixed when it is created, so any such check speaks for the model it has.
 */
export async function dialectEvidence(executor: Executor, barrierId: number): Promise<DialectEvidence> {
  return { deviceCheckPassed: await repository.hasPassedDeviceCheck(executor, barrierId) };
}

export async function listBarrierSettings(
  deps: Pick<Dependencies, 'db'>,
  user: AuthenticatedUser,
  barrierId: number,
): Promise<{ settings: Record<string, SettingView>; unavailable: Record<string, { code: string }> }> {
  const barrier = await loadOwnedBarrier(deps.db, user, barrierId);
  const evidence = await dialectEvidence(deps.db, barrierId);
  const unavailable = Object.fromEntries(
    blockedRelaySettings(barrier.model, evidence).map((id) => [id, { code: 'relay_dialect_unknown' }]),
  );
  return { settings: getSettings(barrier.model), unavailable };
}

export async function sendBarrierSetting(
  deps: Dependencies,
  user: AuthenticatedUser,
  barrierId: number,
  body: { setting: string; params: Record<string, string | null> },
): Promise<{ detail: string; command_id: number }> {
  const now = deps.clock.now();
  const commandId = await deps.db.transaction(async (tx) => {
    const barrier = await loadOwnedBarrier(tx, user, barrierId);
    await lockBarrier(tx, barrierId);
    if (!hasSetting(barrier.model, body.setting)) {
      throw badRequest('unknown_setting', undefined, { setting: body.setting });
    }
    // A relay value of one firmware can hold the gate open on another: refused until the dialect is known.
    const dialect = relaySettingDecision(barrier.model, body.setting, await dialectEvidence(tx, barrierId));
    if (!dialect.known) throw conflict('relay_dialect_unknown', undefined, { setting: body.setting });
    const checked = checkSettingParams(barrier.model, body.setting, body.params);
    if (!checked.ok) {
      // The parameters' own messages (Russian, from the model's sheet) go in `params`, by parameter.
      if (checked.missing.length > 0) {
        throw new HttpError(400, 'setting_params_missing', `Missing params: ${checked.missing.join(', ')}.`, {
          missing: checked.missing,
        });
      }
      throw new HttpError(
        400,
        'setting_params_invalid',
        `Invalid params: ${Object.keys(checked.invalid).join(', ')}.`,
        { params: checked.invalid },
      );
    }
    if (getSheet(barrier.model).hasPassword && !barrier.passwordEncrypted) {
      throw badRequest('device_password_not_set');
    }
    await assertWeeklySmsBudget(tx, barrierId, 1, now, () => loadCommittedSms(tx, deps, barrierId, now));
    const payload = sealSettingPayload(deps.secrets, barrier.model, body.setting, checked.values);
    const commandId = await repository.insertSettingCommand(tx, { barrierId, payload, createdAt: now });
    // Until the unit confirms, the engine knows both passwords (engine/send/password-probe.ts, issue 30 item 4).
    const newPassword = changesPasswordTo(barrier.model, body.setting, checked.values);
    if (newPassword !== null)
      await repository.setPendingDevicePassword(tx, barrierId, deps.secrets.encrypt(newPassword), now);
    await repository.insertSettingAction(tx, {
      barrierId,
      userId: user.id,
      newValue: {
        setting: body.setting,
        // A new device password is never written to history.
        params: isSecretSetting(barrier.model, body.setting) ? {} : checked.values,
      },
      createdAt: now,
    });
    return commandId;
  });
  deps.notifyDeviceCommands([barrierId]);
  return { detail: `Setting ${body.setting} queued.`, command_id: commandId };
}

function failureOf(status: string, lastError: string | null): SettingCommandFailure {
  if (status === 'cancelled') return 'not_sent';
  if (lastError === DEVICE_REFUSED_PASSWORD) return 'wrong_password';
  if (lastError === DEVICE_NOT_UNDERSTOOD) return 'not_understood';
  if (lastError === 'The command could not be written.') return 'not_sent';
  return 'no_reply';
}

/**
 * Where a sent setting is, for the settings screen to follow it live: `sent` while it is queued or waits for
 * the device's answer (a gateway hiccup or a retry included), then `confirmed` or `failed` with the reason.
 */
export async function getSettingCommand(
  deps: Pick<Dependencies, 'db'>,
  user: AuthenticatedUser,
  barrierId: number,
  commandId: number,
): Promise<SettingCommand> {
  await loadOwnedBarrier(deps.db, user, barrierId);
  const command = await repository.findSettingCommand(deps.db, barrierId, commandId);
  if (!command) throw notFound('setting_command_not_found');
  const setting = (command.payload as SettingPayload).setting;
  if (command.status === 'confirmed')
    return { command_id: command.id, setting, state: 'confirmed', failure: null };
  if (command.status === 'failed' || command.status === 'cancelled') {
    return {
      command_id: command.id,
      setting,
      state: 'failed',
      failure: failureOf(command.status, command.lastError),
    };
  }
  return { command_id: command.id, setting, state: 'sent', failure: null };
}
