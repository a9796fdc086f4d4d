/**
 * The engine's reply (docs/ARCHITECTURE.md, src/engine/): which command an SMS from a unit answers, the
 * command confirmed or failed, the unit's own alarms.
 * What the rest of the server uses of it, then what send (above it) uses; the files beside this one are the
 * reply's own.
 */
export { cancelQueuedProbes, retryPhonesInError } from './probed-password.ts';
export { handleDeviceReply, type InboundGatewayId, type ReplyResult } from './replies.ts';
export { REPLY_WINDOW_MS } from './reply-matching.ts';
// The engine's send, above the reply (docs/ARCHITECTURE.md, src/engine/): it fails a command nobody answered.
export { failCommand, logMessages, NO_REPLY, writesInOneStatement } from './settle.ts';
export { recordUnitAlarm } from './unit-alarms.ts';
