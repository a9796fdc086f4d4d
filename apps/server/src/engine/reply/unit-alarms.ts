/**
 * The units' own SMS (issue 30 item 5, docs/decisions/0025 "Power alarms"): an RTU-family unit sends its
 * power-failure SMS to slot 1 and its alarms to slots 1–6, so a barrier that holds the gateway's number in
 * slot 1 hears them. An SMS from a unit's number that its model's alarm forms recognise
 * (`@propusk/devices/alarms`) answers no command: it is written to the device log with its kind as the
 * outcome, counted (`propusk_device_alarms_total`), and read by the health (`power`, «нет питания с …»).
 */
import type { DeviceAlarmKind } from '@propusk/devices/alarms';
import { recogniseAlarm } from '@propusk/devices/alarms';
import { maskSecrets } from '@propusk/devices/mask';
import { isDeviceModel } from '@propusk/devices/models';
import type { DeviceProfileOverride } from '@propusk/devices/profile';
import type { Dependencies } from '../../lib/dependencies.ts';
import { recordNotification } from '../../lib/notification-outbox.ts';
import { insertDeviceMessages } from '../log/index.ts';

/**
 * Records `message` as an alarm of the live barrier whose unit sent it (`barrier`, read by the caller with the
 * SMS stored; null: none), when its model recognises the text; returns what it was, or null (then the SMS goes
 * on to be matched as a reply).
 */
export async function recordUnitAlarm(
  deps: Pick<Dependencies, 'db' | 'secrets' | 'metrics' | 'logger'>,
  message: { from: string; text: string },
  now: Date,
  barrier: { id: number; model: string; passwordEncrypted: string | null; profile?: unknown } | null,
): Promise<{ barrierId: number; kind: DeviceAlarmKind } | null> {
  if (!barrier || !isDeviceModel(barrier.model)) return null;
  // A unit's power texts learnt by a conformance run are recognised exactly (issue 42 item 3).
  const profile = (barrier.profile as DeviceProfileOverride | null | undefined) ?? null;
  const recognised = recogniseAlarm(barrier.model, message.text, profile);
  if (!recognised) return null;
  const password = barrier.passwordEncrypted ? deps.secrets.decrypt(barrier.passwordEncrypted) : null;
  await deps.db.transaction(async (tx) => {
    await insertDeviceMessages(tx, [
      {
        barrierId: barrier.id,
        direction: 'in',
        text: maskSecrets(message.text, [password]),
        outcome: recognised.kind,
        createdAt: now,
      },
    ]);
    // The barrier's administrators are told at once, whatever their quiet hours (issue 43).
    if (recognised.kind === 'power_failure' || recognised.kind === 'power_restored') {
      const kind = recognised.kind === 'power_failure' ? 'power_lost' : 'power_restored';
      await recordNotification(tx, { kind, barrierId: barrier.id });
    }
  });
  deps.metrics.deviceAlarms.inc({ kind: recognised.kind });
  const log = recognised.kind === 'power_restored' ? deps.logger.info : deps.logger.warn;
  log.call(deps.logger, { barrierId: barrier.id, kind: recognised.kind }, 'the device sent an alarm');
  return { barrierId: barrier.id, kind: recognised.kind };
}
