/**
 * The engine's send (docs/ARCHITECTURE.md, src/engine/): which barrier's command goes next, its text at send
 * time, the gateway's tokens and the call, one command at a time per device; the password probe.
 * What the rest of the server uses of it; the files beside this one are the engine's own.
 */
export {
  barriersNeedingAttention,
  barriersWithOpenCommands,
  firstBarriersWithOpenCommands,
  nextReconcileAt,
  reconcileBarrier,
} from './order.ts';
export { handOffKey, type ProcessResult } from './render.ts';
export { processBarrier } from './send.ts';
