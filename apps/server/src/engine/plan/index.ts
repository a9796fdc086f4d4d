/**
 * The engine's plan (docs/ARCHITECTURE.md, src/engine/): what a barrier's unit should hold, compared with
 * what it is believed to hold, planned as `device_commands` rows inside the change's transaction.
 * What the rest of the server uses of it; the files beside this one are the engine's own.
 */
export { OPENING_EXPIRED, OPENING_KINDS, type RelayPayload } from './command-kinds.ts';
export { loadCommittedSms } from './committed-sms.ts';
export { CONFORMANCE_KIND, type QueueDeps } from './device-rows.ts';
export { deviceViewOf, loadDeviceState, loadProjectedState } from './device-state.ts';
export { forecastDeviceSync, lockBarrier, type SyncReport, syncBarrierDevice } from './outbox.ts';
export type { ConformancePayload, ReadCommandPayload } from './read-commands.ts';
export { isSecretSetting, type SettingPayload, sealSettingPayload } from './setting-payload.ts';
