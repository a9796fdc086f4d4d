/**
 * The device conversation log and the device's health, for the owner of a barrier (issue 10, parts 3 and 5;
 * docs/decisions/0007-device-log-and-health.md). Messages are written by the engine (src/engine) as they are
 * sent and received; this reads them, and the health figures (engine/log/health.ts).
 */

import type {
  DeviceHealth,
  DeviceLog,
  DeviceLogQuery,
  DeviceMessageDirection,
  DeviceMessageOutcome,
} from '@propusk/contracts/devices';
import { maskPhonesInText } from '@propusk/contracts/phone-mask';
import {
  devicePowerOf,
  deviceStateOf,
  noFigures,
  deviceLogRepository as repository,
} from '../../engine/log/index.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import {
  paginate,
  requireBarrierPermission,
  requireBarrierRole,
  roleHolds,
} from '../barrier-policy/policy.ts';

export function createDeviceLogService(deps: Dependencies) {
  const { db } = deps;

  async function figuresOf(barrierId: number) {
    const [figures] = await repository.deviceFigures(db, [barrierId], deps.clock.now());
    return figures ?? noFigures(barrierId);
  }

  return {
    async list(admin: AuthenticatedUser, barrierId: number, query: DeviceLogQuery): Promise<DeviceLog> {
      const { role } = await requireBarrierRole(db, admin.id, barrierId, 'device.health');
      // Issue 28 part 3: a role that does not manage phones (a dispatcher) reads every number masked; the
      // owner reads the text as stored (the password already masked when it was written).
      const readsPhones = roleHolds(role, 'phones.manage');
      const [{ rows, total }, figures] = await Promise.all([
        repository.listDeviceMessages(db, { barrierId, outcome: query.outcome }, query),
        figuresOf(barrierId),
      ]);
      const messages = rows.map((row) => ({
        id: row.id,
        created_at: apiDateTime(row.createdAt),
        direction: row.direction as DeviceMessageDirection,
        text: readsPhones ? row.text : maskPhonesInText(row.text),
        outcome: row.outcome as DeviceMessageOutcome,
        command_id: row.commandId,
        command_kind: row.commandKind,
        provider_id: row.providerId,
      }));
      return {
        ...paginate('messages', messages, total, query),
        unrecognised_count: figures.unrecognisedCount,
      };
    },

    async health(admin: AuthenticatedUser, barrierId: number): Promise<DeviceHealth> {
      await requireBarrierPermission(db, admin.id, barrierId, 'device.health');
      const figures = await figuresOf(barrierId);
      const now = deps.clock.now();
      const { power, powerSince } = devicePowerOf(figures, now);
      return {
        state: deviceStateOf(figures, now, deps.config.DEVICE_REPLY_TIMEOUT_MS),
        last_reply_at: apiDateTime(figures.lastReplyAt),
        open_commands: figures.openCommands,
        oldest_open_at: apiDateTime(figures.oldestOpenAt),
        oldest_open_age_seconds: figures.oldestOpenAt
          ? Math.max(0, Math.floor((now.getTime() - figures.oldestOpenAt.getTime()) / 1000))
          : null,
        consecutive_failures: figures.consecutiveFailures,
        unrecognised_count: figures.unrecognisedCount,
        power,
        power_since: apiDateTime(powerSince),
        alarms_today: figures.alarmsToday,
      };
    },
  };
}
