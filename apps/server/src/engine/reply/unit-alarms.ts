/**
 * The units' own SMS (issue 30 item 5, docs/decisions/0025 "Power alarms"): an RTU-family unit sends its
 * power-failure SMS to slot 1 and its alarms to slots 1–6, so a barrier that holds the gateway's number in
 * slot 1 hears them. An SMS from a unit's number that its model's alarm forms recognise (the reply decision,
 * `@propusk/devices/reply`'s `decideInbound`) answers no command: it is written here to the device log with
 * its kind as the outcome, counted (`propusk_device_alarms_total`), and read by the health (`power`,
 * «нет питания с …»).
 */
import type { DeviceAlarmKind } from '@propusk/devices/alarms';
import type { Dependencies } from '../../lib/dependencies.ts';
import { recordNotification } from '../../lib/notification-outbox.ts';
import { insertDeviceMessages } from '../log/index.ts';

/**
 * Records the unit's own SMS of the live barrier `alarm.barrierId`, recognised as `alarm.kind`, with the text
 * as the log keeps it (its password hidden), and tells its administrators of a power failure or return.
 */
export async function recordUnitAlarm(
  deps: Pick<Dependencies, 'db' | 'metrics' | 'logger'>,
  alarm: { barrierId: number; kind: DeviceAlarmKind; loggedText: string },
  now: Date,
): Promise<{ barrierId: number; kind: DeviceAlarmKind }> {
  const { barrierId, kind } = alarm;
  await deps.db.transaction(async (tx) => {
    await insertDeviceMessages(tx, [
      { barrierId, direction: 'in', text: alarm.loggedText, outcome: kind, createdAt: now },
    ]);
    // The barrier's administrators are told at once, whatever their quiet hours (issue 43).
    if (kind === 'power_failure' || kind === 'power_restored')
      await recordNotification(tx, {
        kind: kind === 'power_failure' ? 'power_lost' : 'power_restored',
        barrierId,
      });
  });
  deps.metrics.deviceAlarms.inc({ kind });
  const log = kind === 'power_restored' ? deps.logger.info : deps.logger.warn;
  log.call(deps.logger, { barrierId, kind }, 'the device sent an alarm');
  return { barrierId, kind };
}
