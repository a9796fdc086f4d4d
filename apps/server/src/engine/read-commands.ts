/**
 * The payload of a read-back query (kind `read`): a query of "Проверить устройство" (modules/device-checks)
 * that the engine sends, retries, joins from split replies (reply-matching.ts) and hands back through
 * hooks.ts `readReplied`.
 */
import type { ReadQuery } from '@propusk/devices/readback';

export interface ReadCommandPayload {
  check_id: number;
  /** What the next attempt asks: the whole range, or after a partial answer only the slots still missing. */
  query: ReadQuery;
  /** The range first asked, once `query` was narrowed to the missing slots (docs/decisions/0025). */
  whole?: ReadQuery;
}
