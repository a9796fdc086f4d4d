/**
 * The engine's plan (docs/ARCHITECTURE.md, src/engine/): what a barrier's unit should hold, compared with
 * what it is believed to hold, planned as `device_commands` rows inside the change's transaction.
 * What the rest of the server and the engine's folders above it (reply, send: log → budget → plan → reply →
 * send) use of it; the files beside this one are the plan's own.
 */
export {
  HOLD_RETRY_MAX_MS,
  OPENING_EXPIRED,
  OPENING_KINDS,
  OPENING_SEND_WINDOW_MS,
  queueRankSql,
  type RelayPayload,
} from './command-kinds.ts';
export { loadCommittedSms } from './committed-sms.ts';
export {
  type BarrierRow,
  barrierColumns,
  CONFORMANCE_KIND,
  type CommandRow,
  devicePassword,
  deviceSecrets,
  displacedByConfirmedUnit,
  isConformanceKind,
  isProbeKind,
  isReadKind,
  isWhitelistKind,
  loadBarrier,
  markDeviceConfirmed,
  oldestOpenCommand,
  PASSWORD_PROBE_KIND,
  type QueueDeps,
  toBarrierRow,
} from './device-rows.ts';
export {
  deviceViewOf,
  type JsonTuples,
  loadDeviceState,
  loadModelAndSpecs,
  loadProjectedState,
  phoneSpecsOf,
  phoneTupleSql,
} from './device-state.ts';
export { forecastDeviceSync, lockBarrier, type SyncReport, syncBarrierDevice } from './outbox.ts';
export { commandCoversSlot } from './pending-phones.ts';
export type { ConformancePayload, PasswordProbePayload, ReadCommandPayload } from './read-commands.ts';
export {
  isSecretSetting,
  openSettingPayload,
  type SettingPayload,
  sealSettingPayload,
} from './setting-payload.ts';
