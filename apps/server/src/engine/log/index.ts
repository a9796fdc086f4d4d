/**
 * The engine's log (docs/ARCHITECTURE.md, src/engine/): the SMS to and from the units (`device_messages`),
 * the health figures read from it, the failure reasons written into it.
 * What the rest of the server uses of it; the files beside this one are the engine's own.
 */
export * as deviceLogRepository from './device-log-repository.ts';
export { insertDeviceMessages } from './device-log-repository.ts';
export { DEVICE_NOT_UNDERSTOOD, DEVICE_REFUSED_PASSWORD } from './failure-reasons.ts';
export { type DeviceSummary, devicePowerOf, deviceStateOf, deviceSummaries, noFigures } from './health.ts';
