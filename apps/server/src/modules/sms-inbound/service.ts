/**
 * Inbound SMS, whatever gateway delivered them (the generic endpoint, the Android app's webhook, or the
 * demo device simulator): stored, matched to the device command in flight, and the worker woken for the
 * barrier's next command.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Dependencies } from '../../lib/dependencies.ts';
import { unauthorized } from '../../lib/errors.ts';
import { handleDeviceReply, type ReplyResult } from '../devices/queue.ts';

export async function receiveInboundSms(
  deps: Dependencies,
  message: { from: string; text: string },
): Promise<ReplyResult> {
  const result = await handleDeviceReply(deps, message);
  if (result.matched) deps.notifyDeviceCommands([result.matched.barrierId]);
  return result;
}

/** 401 unless the header carries `Bearer $INBOUND_SMS_TOKEN`; with no token configured, refuses everything. */
export function assertInboundToken(deps: Pick<Dependencies, 'config'>, header: string | undefined): void {
  const expected = deps.config.INBOUND_SMS_TOKEN;
  const given = header?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (!expected || !given || !sameSecret(expected, given)) throw unauthorized();
}

export function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
