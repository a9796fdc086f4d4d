/**
 * Inbound SMS, whatever gateway delivered them (the generic endpoint, the Android app's webhook, or the
 * demo device simulator): stored, matched to the device command in flight, and the worker woken for the
 * barrier's next command.
 */
import { timingSafeEqual } from 'node:crypto';
import { handleDeviceReply, type InboundGatewayId, type ReplyResult } from '../../engine/reply/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { unauthorized } from '../../lib/errors.ts';
import { sha256 } from '../../lib/secrets.ts';
import { deleteExpiredWebhookSignatures, rememberWebhookSignature } from './repository.ts';

/** The signed timestamp may be this far from the server's clock (either way), as the signature check allows. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export async function receiveInboundSms(
  deps: Dependencies,
  message: { from: string; text: string; gatewayId?: InboundGatewayId | undefined },
): Promise<ReplyResult> {
  const result = await handleDeviceReply(deps, message);
  // A barrier whose queue the reply left empty has nothing to send: no sending transaction to find that out.
  if (result.matched && !result.matched.queueEmpty) deps.notifyDeviceCommands([result.matched.barrierId]);
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

/**
 * 401 `webhook_replayed` when this signed webhook was accepted before (docs/decisions/0012). A signature is
 * remembered until its timestamp leaves the accepted window, after which the signature check refuses it anyway.
 */
export async function assertWebhookNotReplayed(
  deps: Pick<Dependencies, 'db' | 'clock' | 'logger'>,
  input: { signature: string; timestamp: string },
): Promise<void> {
  const now = deps.clock.now();
  await deleteExpiredWebhookSignatures(deps.db, now);
  const expiresAt = new Date((Number(input.timestamp) + WEBHOOK_TOLERANCE_SECONDS) * 1000 + 1000);
  const isFirst = await rememberWebhookSignature(deps.db, sha256(input.signature.toLowerCase()), expiresAt);
  if (!isFirst) {
    deps.logger.warn('a signed gateway webhook was replayed: refused');
    throw unauthorized('webhook_replayed');
  }
}
