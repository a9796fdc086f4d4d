/**
 * The device's health from its figures (issue 10 part 5; docs/decisions/0007-device-log-and-health.md): the
 * state and the supply the administrator's list and the barrier page show. The figures are read by
 * device-log-repository.ts from the conversation log and the queue.
 */
import type { DevicePower, DeviceState } from '@propusk/contracts/devices';
import type { Executor } from '../../db/database.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import * as repository from './device-log-repository.ts';
import { DEVICE_PHONE_ELSEWHERE, DEVICE_REFUSED_PASSWORD } from './failure-reasons.ts';

/** How many reply timeouts the oldest open command may wait before the device counts as not responding. */
export const NOT_RESPONDING_AFTER_TIMEOUTS = 3;

/**
 * The state of a device from its figures, in this order: its number is a confirmed unit's of another barrier
 * (nothing is sent: decision 0030); the password was refused (sending again cannot
 * help: the administrator must correct it); it does not answer (a command failed since the last confirmed
 * one, the one in flight had to be sent again, or the oldest open command waits longer than three reply
 * timeouts); commands are on their way; all is well.
 */
export function deviceStateOf(
  figures: repository.DeviceFigures,
  now: Date,
  replyTimeoutMs: number,
): DeviceState {
  if (figures.lastFailureReason === DEVICE_PHONE_ELSEWHERE) return 'phone_elsewhere';
  if (figures.lastFailureReason === DEVICE_REFUSED_PASSWORD) return 'wrong_password';
  const oldestAgeMs = figures.oldestOpenAt ? now.getTime() - figures.oldestOpenAt.getTime() : 0;
  if (
    figures.consecutiveFailures >= 1 ||
    (figures.openCommands > 0 && figures.oldestOpenAttempts >= 2) ||
    oldestAgeMs > NOT_RESPONDING_AFTER_TIMEOUTS * replyTimeoutMs
  ) {
    // A wrong password gets no answer at all (King Pigeon RTU5023–5029 manual v2.5, p. 8, note 7): silence
    // means a wrong password only when the unit is proven on the air — it sent an SMS after the silence began —
    // and its model takes a password at all (Telemetrica does not: its silence is «не отвечает» whatever it
    // sends; docs/decisions/0025, session audit30).
    if (!figures.hasPassword) return 'not_responding';
    const onTheAir =
      figures.lastMessageInAt !== null &&
      figures.silentSince !== null &&
      figures.lastMessageInAt.getTime() > figures.silentSince.getTime();
    return onTheAir ? 'password_suspected' : 'not_responding';
  }
  return figures.openCommands > 0 ? 'waiting' : 'ok';
}

/** How long «питание восстановлено» is shown after the unit's restoration SMS. */
export const POWER_RESTORED_SHOWN_MS = 24 * 60 * 60 * 1000;

/**
 * The unit's supply by its own SMS (issue 30 item 5): `lost` from its power-failure SMS until its restoration
 * SMS, `restored` for a day after that; null when it said nothing (or said it long ago).
 */
export function devicePowerOf(
  figures: Pick<repository.DeviceFigures, 'lastPower'>,
  now: Date,
): { power: DevicePower | null; powerSince: Date | null } {
  const last = figures.lastPower;
  if (!last) return { power: null, powerSince: null };
  if (last.outcome === 'power_failure') return { power: 'lost', powerSince: last.at };
  return now.getTime() - last.at.getTime() <= POWER_RESTORED_SHOWN_MS
    ? { power: 'restored', powerSince: last.at }
    : { power: null, powerSince: null };
}

/** A device in short: its state and its supply (the administrator's barrier list and card). */
export interface DeviceSummary {
  state: DeviceState;
  power: DevicePower | null;
  powerSince: Date | null;
}

export const noFigures = (barrierId: number): repository.DeviceFigures => ({
  barrierId,
  lastReplyAt: null,
  openCommands: 0,
  oldestOpenAt: null,
  oldestOpenAttempts: 0,
  consecutiveFailures: 0,
  lastMessageInAt: null,
  silentSince: null,
  lastFailureReason: null,
  unrecognisedCount: 0,
  lastPower: null,
  alarmsToday: 0,
  hasPassword: true,
});

/** The state and supply of each barrier's device, in one statement for all of them (the list page). */
export async function deviceSummaries(
  executor: Executor,
  deps: Pick<Dependencies, 'clock' | 'config'>,
  barrierIds: number[],
): Promise<Map<number, DeviceSummary>> {
  const now = deps.clock.now();
  const figures = await repository.deviceFigures(executor, barrierIds, now);
  return new Map(
    figures.map((row) => [
      row.barrierId,
      { state: deviceStateOf(row, now, deps.config.DEVICE_REPLY_TIMEOUT_MS), ...devicePowerOf(row, now) },
    ]),
  );
}
