/**
 * «Устройство сброшено к заводским настройкам» (issue 30 item 4, docs/decisions/0025): the administrator says
 * the unit's reset button was pressed. Its password is then the model's factory one (the sheet's
 * `factoryPassword`, cited: RTU5025 1234), whatever the server stored, so nothing the server sends is heard.
 * In one transaction: the factory password becomes the stored one; a password change sets the unit back to the
 * password the server had (its answer confirms it, and until then the engine knows both: password-probe.ts);
 * and a check reads the whitelist back and repairs it by itself (the reset may have kept or wiped the
 * numbers: the reading decides). The check's reads are queued after the password change, so they are written
 * with the restored password.
 */
import type { FactoryResetResponse } from '@propusk/contracts/device-checks';
import { getSheet, isDeviceModel } from '@propusk/devices/models';
import { eq } from 'drizzle-orm';
import { barriers, deviceCommands } from '../../db/schema.ts';
import { lockBarrier, sealSettingPayload } from '../../engine/plan/index.ts';
import { cancelQueuedProbes, retryPhonesInError } from '../../engine/reply/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { badRequest, conflict } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { requireBarrierPermission } from '../barrier-policy/policy.ts';
import * as repository from './repository.ts';
import { presentCheck } from './service.ts';
import { planQueries, startCheck } from './start-check.ts';

export async function declareFactoryReset(
  deps: Pick<Dependencies, 'db' | 'clock' | 'config' | 'secrets' | 'notifyDeviceCommands'>,
  user: AuthenticatedUser,
  barrierId: number,
): Promise<FactoryResetResponse> {
  const now = deps.clock.now();
  const result = await deps.db.transaction(async (tx) => {
    const barrier = await requireBarrierPermission(tx, user.id, barrierId, 'settings.manage');
    await lockBarrier(tx, barrierId);
    if (!isDeviceModel(barrier.deviceModel)) throw conflict('device_model_unknown');
    const model = barrier.deviceModel;
    const sheet = getSheet(model);
    const factory = sheet.factoryPassword?.value;
    if (!sheet.hasPassword || factory === undefined) throw badRequest('device_factory_password_unknown');
    const stored = barrier.devicePasswordEncrypted
      ? deps.secrets.decrypt(barrier.devicePasswordEncrypted)
      : null;
    // A check still reading was written with the password the unit no longer has: it ends here.
    const running = await repository.latestCheck(tx, barrierId);
    if (running?.status === 'reading') {
      await repository.cancelOpenReads(tx, barrierId, running.id, now);
      await repository.finishCheck(tx, running.id, 'cancelled', now);
    }
    const changeId = Object.entries(sheet.settings).find(
      ([, setting]) => setting.effect === 'change_password',
    )?.[0];
    const restore = stored !== null && stored !== factory && changeId !== undefined;
    await tx
      .update(barriers)
      .set({
        devicePasswordEncrypted: deps.secrets.encrypt(factory),
        devicePasswordPendingEncrypted: restore ? deps.secrets.encrypt(stored) : null,
        devicePasswordPreviousEncrypted: barrier.devicePasswordEncrypted,
        devicePasswordChangedAt: now,
        updatedAt: now,
      })
      .where(eq(barriers.id, barrierId));
    await cancelQueuedProbes(tx, barrierId, now);
    let passwordCommandId: number | null = null;
    if (restore) {
      const [command] = await tx
        .insert(deviceCommands)
        .values({
          barrierId,
          kind: 'setting',
          payload: sealSettingPayload(deps.secrets, model, changeId, { new_password: stored }),
          createdAt: now,
        })
        .returning({ id: deviceCommands.id });
      passwordCommandId = command?.id ?? null;
    }
    // What failed with the password the unit lost goes again (after the change, so with the restored one).
    await retryPhonesInError(tx, deps, barrierId, now);
    // Not held back by the weekly SMS limit: like a revocation, it is what keeps the gate in step.
    const queries = await planQueries(tx, barrierId, model, barrier.deviceProfile, false, now);
    const row = await startCheck(tx, {
      barrierId,
      requestedBy: user.id,
      full: false,
      autoRepair: true,
      queries,
      action: { setting: 'device_factory_reset', password_restored: restore },
      now,
    });
    return { password_command_id: passwordCommandId, check: await presentCheck(deps, tx, model, row) };
  });
  deps.notifyDeviceCommands([barrierId]);
  return result;
}
