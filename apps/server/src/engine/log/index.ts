/**
 * The engine's log (docs/ARCHITECTURE.md, src/engine/): the SMS to and from the units (`device_messages`),
 * the health figures read from it, the failure reasons written into it.
 * What the rest of the server and the engine's folders above it use of it; the files beside this one are the
 * log's own.
 */
export * as deviceLogRepository from './device-log-repository.ts';
export { insertDeviceMessages, type NewDeviceMessage } from './device-log-repository.ts';
export { DEVICE_NOT_UNDERSTOOD, DEVICE_PHONE_ELSEWHERE, DEVICE_REFUSED_PASSWORD } from './failure-reasons.ts';
export { type DeviceSummary, devicePowerOf, deviceStateOf, deviceSummaries, noFigures } from './health.ts';
