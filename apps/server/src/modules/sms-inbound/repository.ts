/** Queries of inbound SMS webhooks: the signatures already accepted (replay protection). */
import { lt } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { inboundWebhookSignatures } from '../../db/schema.ts';

/**
 * Records an accepted signature; false when it was recorded before (a replay). One INSERT … ON CONFLICT, so of
 * two parallel copies of one request exactly one gets true.
 */
export async function rememberWebhookSignature(
  executor: Executor,
  signatureHash: string,
  expiresAt: Date,
): Promise<boolean> {
  const rows = await executor
    .insert(inboundWebhookSignatures)
    .values({ signatureHash, expiresAt })
    .onConflictDoNothing()
    .returning({ signatureHash: inboundWebhookSignatures.signatureHash });
  return rows.length > 0;
}

/** Forgets signatures whose timestamp is outside the accepted window: such a request is refused anyway. */
export async function deleteExpiredWebhookSignatures(executor: Executor, now: Date): Promise<void> {
  await executor.delete(inboundWebhookSignatures).where(lt(inboundWebhookSignatures.expiresAt, now));
}
