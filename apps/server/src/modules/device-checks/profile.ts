/**
 * A barrier's device profile: the number form and extra reply forms of a unit that answers differently from
 * its model's sheet (`@propusk/devices/profile`). Admin-only, validated, written to history; the queue and
 * the demo simulator use it from the next command on.
 */
import type { DeviceProfileResponse } from '@propusk/contracts/device-checks';
import { type DeviceModel, getSheet, isDeviceModel } from '@propusk/devices/models';
import { NUMBER_FORMAT_LABELS, NUMBER_FORMATS } from '@propusk/devices/numbers';
import { type DeviceProfileOverride, resolveSheet, validateProfileOverride } from '@propusk/devices/profile';
import { eq } from 'drizzle-orm';
import { barriers } from '../../db/schema.ts';
import { lockBarrier } from '../../engine/plan/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict, FieldError } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { requireBarrierPermission } from '../barrier-policy/policy.ts';
import { insertAction } from './repository.ts';

function present(model: DeviceModel, profile: DeviceProfileOverride | null): DeviceProfileResponse {
  const sheet = getSheet(model);
  return {
    model,
    profile,
    number_format: resolveSheet(model, profile).numberFormat,
    number_formats: NUMBER_FORMATS.map((value) => ({ value, label: NUMBER_FORMAT_LABELS[value] })),
    documented: {
      number_format: sheet.numberFormat,
      number_format_source: sheet.numberFormatSource,
      replies: {
        add: sheet.replies.add,
        add_window: sheet.replies.addWindow,
        delete: sheet.replies.delete,
        set_clock: sheet.replies.setClock,
        refused: sheet.replies.refused,
        format_error: sheet.replies.formatError,
      },
    },
  };
}

export async function getDeviceProfile(
  deps: Pick<Dependencies, 'db'>,
  user: AuthenticatedUser,
  barrierId: number,
): Promise<DeviceProfileResponse> {
  const barrier = await requireBarrierPermission(deps.db, user.id, barrierId, 'settings.manage');
  if (!isDeviceModel(barrier.deviceModel)) throw conflict('device_model_unknown');
  return present(barrier.deviceModel, (barrier.deviceProfile as DeviceProfileOverride | null) ?? null);
}

/** Replaces the barrier's profile (an empty body restores the model's sheet); 400 names each bad field. */
export async function setDeviceProfile(
  deps: Pick<Dependencies, 'db' | 'clock'>,
  user: AuthenticatedUser,
  barrierId: number,
  body: Record<string, unknown>,
): Promise<DeviceProfileResponse> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const barrier = await requireBarrierPermission(tx, user.id, barrierId, 'settings.manage');
    await lockBarrier(tx, barrierId);
    if (!isDeviceModel(barrier.deviceModel)) throw conflict('device_model_unknown');
    const model = barrier.deviceModel;
    const input = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
    const checked = validateProfileOverride(model, input);
    if (!checked.ok) {
      throw new FieldError(
        Object.fromEntries(Object.entries(checked.errors).map(([key, message]) => [key, [message]])),
      );
    }
    const profile = Object.keys(checked.value).length > 0 ? checked.value : null;
    await tx
      .update(barriers)
      .set({ deviceProfile: profile, updatedAt: now })
      .where(eq(barriers.id, barrierId));
    await insertAction(
      tx,
      barrierId,
      user.id,
      { setting: 'device_profile', old: barrier.deviceProfile ?? null, profile },
      now,
    );
    return present(model, profile);
  });
}
