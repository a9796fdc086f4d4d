/** What both relay jobs (openings.ts, holds.ts) ask before driving a relay, and how a step becomes a payload. */
import { getSheet, isDeviceModel } from '@propusk/devices/models';
import { type RelayAvailability, type RelayStep, relayAvailability } from '@propusk/devices/relay';
import type { Executor } from '../../db/database.ts';
import type { RelayPayload } from '../../engine/plan/index.ts';
import { dialectEvidence } from '../device-settings/service.ts';
import type { BarrierRow } from './repository.ts';

/** Whether the server may drive this barrier's relay now (model, dialect, password). */
export async function relayCheck(
  executor: Executor,
  barrier: BarrierRow,
): Promise<RelayAvailability | { ok: false; code: 'device_password_not_set' | 'device_model_unknown' }> {
  if (!isDeviceModel(barrier.deviceModel)) return { ok: false, code: 'device_model_unknown' };
  const availability = relayAvailability(barrier.deviceModel, await dialectEvidence(executor, barrier.id));
  if (!availability.ok) return availability;
  if (getSheet(barrier.deviceModel).hasPassword && !barrier.devicePasswordEncrypted)
    return { ok: false, code: 'device_password_not_set' };
  return availability;
}

export function stepPayload(step: RelayStep, extra: Partial<RelayPayload>): RelayPayload {
  return { setting: step.setting, params: step.params, ...extra };
}
