/**
 * The payload of a read-back query (kind `read`): a query of "Проверить устройство" (modules/device-checks)
 * that the engine sends, retries, joins from split replies (reply-matching.ts) and hands back through
 * hooks.ts `readReplied`.
 */
import type { ConformanceStep } from '@propusk/devices/conformance';
import type { ReadQuery } from '@propusk/devices/readback';

export interface ReadCommandPayload {
  check_id: number;
  /** What the next attempt asks: the whole range, or after a partial answer only the slots still missing. */
  query: ReadQuery;
  /** The range first asked, once `query` was narrowed to the missing slots (docs/decisions/0025). */
  whole?: ReadQuery;
}

/** The payload of a conformance run's step (kind `conformance`, device-rows.ts): the run and the step sent. */
export interface ConformancePayload {
  run_id: number;
  /** The step's place in its run's plan. */
  index: number;
  step: ConformanceStep;
}

/** The payload of a password probe (kind `password_probe`: send/password-probe.ts sends it, reply/probed-password.ts adopts its answer). */
export interface PasswordProbePayload {
  /** Which of the barrier's other passwords the probe is written with. */
  password: 'pending' | 'previous';
  query: ReadQuery;
}
