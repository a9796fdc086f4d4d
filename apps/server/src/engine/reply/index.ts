/**
 * The engine's reply (docs/ARCHITECTURE.md, src/engine/): which command an SMS from a unit answers, the
 * command confirmed or failed, the unit's own alarms.
 * What the rest of the server uses of it, and send above it (`failCommand`: a command nobody answered); the
 * files beside this one are the reply's own.
 */
export { cancelQueuedProbes, retryPhonesInError } from './probed-password.ts';
export { handleDeviceReply, type InboundGatewayId, type ReplyResult } from './replies.ts';
export { REPLY_WINDOW_MS } from './reply-matching.ts';
export { failCommand, logMessages, NO_REPLY, writesInOneStatement } from './settle.ts';
export { recordUnitAlarm } from './unit-alarms.ts';
