/**
 * The device command queue, sending: the `device_commands` table is the queue of record, and the engine's
 * files are the only code that moves a command along (queued → sent → confirmed | failed). Each runs in short
 * transactions under the barrier's row lock, so two processes on one database never send the same command
 * and a device never has two commands in flight. The SMS text is rendered at the moment of sending, with
 * the device password decrypted in memory only.
 *
 * The hand-over to the gateway is idempotent. Each attempt is recorded (`sent`, `attempts` + 1) and committed
 * before the gateway call, and the call carries the attempt's key (`handOffKey`: command id + attempt). The
 * gateway's acceptance is recorded after it (`handed_over_at`). A process that dies between the two leaves a
 * `sent` command with no recorded acceptance: once its reply is overdue it is handed over again with the SAME
 * key, so a gateway that deduplicates (the Android app, the demo) sends nothing twice; SMS.ru has no key and
 * may send it twice (docs/decisions/0011-resilience.md says why that is the safer side). A command whose
 * hand-over was accepted and whose reply never came is a new attempt with a new key: the device may not
 * have got it. The worker (src/jobs) calls `processBarrier` when woken; tests call it directly with a manual
 * clock.
 */
import { and, eq, sql } from 'drizzle-orm';
import { deviceCommands, deviceMessages } from '../../db/schema.ts';
import type { NewDeviceMessage } from '../log/index.ts';
import type { QueueDeps } from '../plan/index.ts';
import { logMessages, writesInOneStatement } from '../reply/index.ts';
import { GATEWAY_DOWN_MS, gatewaysOf, markGatewayDown, needsKnownSender } from './gateway-rate.ts';
import type { ProcessResult, Step } from './render.ts';
import { sendBatcherOf } from './send-batcher.ts';

export interface QueueFaults {
  /** After the gateway accepted the SMS, before its acceptance is recorded. */
  afterGatewayCall?: () => void;
}

/** Wait before sending again after the gateway refused or could not be reached. */
export const GATEWAY_RETRY_MS = 30_000;

/**
 * Sends the barrier's next command if none is in flight, and deals with an in-flight command whose reply
 * is overdue (retry after a backoff, or `failed` after DEVICE_MAX_ATTEMPTS). Returns what to wait for.
 *
 * The deciding transaction is shared: the calls made while another one runs are decided together in the next
 * (`SendBatcher`), so a burst of commits costs a few statements per batch instead of several per barrier.
 */
export async function processBarrier(
  deps: QueueDeps,
  barrierId: number,
  faults: QueueFaults = {},
  observed: { reconcileAt?: Date | null } = {},
): Promise<ProcessResult> {
  const step = await sendBatcherOf(deps).decide(barrierId);
  // When the barrier's whitelist next changes by itself, where the sending transaction read it (the worker).
  if (step.reconcileAt !== undefined) observed.reconcileAt = step.reconcileAt;
  if (!('send' in step) || !step.send) return step.result;
  const { send } = step;
  const logged = { barrierId, direction: 'out', text: send.loggedText, commandId: send.commandId } as const;
  const gateways = gatewaysOf(deps);
  const entry = gateways.find((candidate) => candidate.name === send.gateway) ?? gateways[0]!;
  let sent: Awaited<ReturnType<QueueDeps['sms']['send']>>;
  try {
    sent = await entry.gateway.send({ to: send.to, text: send.text, key: send.key });
  } catch (error) {
    deps.metrics.smsFailed.inc({ provider: entry.gateway.name, gateway: entry.name, purpose: 'device' });
    // The SMS did not leave: the command goes back to the queue without spending an attempt. The gateway is
    // left out for a while by every process; with another gateway the device accepts, it goes through that
    // one at once (under the same attempt's key: the failed gateway never took it).
    const failedAt = deps.clock.now();
    if (gateways.length > 1)
      await markGatewayDown(deps.db, entry.name, new Date(failedAt.getTime() + GATEWAY_DOWN_MS)).catch(
        (markError: unknown) => deps.logger.error({ err: markError }, 'gateway could not be marked down'),
      );
    const another = gateways.length > 1 && !needsKnownSender(send.model);
    const retryAt = new Date(failedAt.getTime() + (another ? 0 : GATEWAY_RETRY_MS));
    await deps.db
      .update(deviceCommands)
      .set({
        status: 'queued',
        attempts: send.attempts - 1,
        nextAttemptAt: another ? null : retryAt,
        lastError: `SMS gateway ${entry.name}: ${(error as Error).message}`.slice(0, 500),
      })
      .where(
        and(
          eq(deviceCommands.id, send.commandId),
          eq(deviceCommands.status, 'sent'),
          eq(deviceCommands.attempts, send.attempts),
        ),
      );
    await logMessages(deps, [{ ...logged, outcome: 'gateway_failed', createdAt: deps.clock.now() }]);
    deps.logger.warn(
      { barrierId, commandId: send.commandId, requestId: send.requestId, gateway: entry.name, err: error },
      'SMS gateway failed; will retry',
    );
    return { state: 'gateway_failed', commandId: send.commandId, retryAt };
  }
  faults.afterGatewayCall?.();
  // The attempt's acceptance (from here a retry is a new attempt with a new key), with the SMS's log row in
  // the same statement.
  const handedOverAt = deps.clock.now();
  const sentLog: NewDeviceMessage | null = sent?.duplicate
    ? null
    : { ...logged, outcome: 'sent', providerId: sent?.providerId ?? null, createdAt: handedOverAt };
  await recordHandOver(deps, send, handedOverAt, sentLog);
  if (sent?.duplicate) {
    // The gateway had this key: the SMS left before the process that handed it over died.
    deps.logger.info(
      { barrierId, commandId: send.commandId, requestId: send.requestId, attempt: send.attempts },
      'device command was already with the gateway; nothing sent again',
    );
    return step.result;
  }
  deps.metrics.smsSent.inc({ provider: entry.gateway.name, gateway: entry.name, purpose: 'device' });
  // The first hand-over only: a retry after no reply would measure the device's silence, not the queue.
  if (send.attempts === 1) {
    const latencyMs = deps.clock.now().getTime() - send.storedAt.getTime();
    deps.metrics.deviceCommandSendLatency.observe(Math.max(0, latencyMs) / 1000);
  }
  if (send.confirmRead) await sendConfirmRead(deps, entry, send, barrierId);
  deps.logger.info(
    {
      barrierId,
      commandId: send.commandId,
      requestId: send.requestId,
      attempt: send.attempts,
      gateway: entry.name,
    },
    'device command sent',
  );
  return step.result;
}

/**
 * Records the gateway's acceptance of the attempt and, when given, its log row, in one statement. The log is
 * for reading: should the pair fail, the acceptance is recorded alone and the log row written as
 * `logMessages` writes it (a failure logged and dropped), as when they were two statements.
 */
async function recordHandOver(
  deps: QueueDeps,
  send: NonNullable<Step['send']>,
  at: Date,
  log: NewDeviceMessage | null,
): Promise<void> {
  const handedOver = sql`update ${deviceCommands} set handed_over_at = ${at}
    where id = ${send.commandId} and attempts = ${send.attempts}`;
  if (log !== null) {
    try {
      await deps.db.execute(
        writesInOneStatement([
          handedOver,
          sql`insert into ${deviceMessages} (barrier_id, direction, text, command_id, outcome, provider_id, created_at)
            values (${log.barrierId}, ${log.direction}, ${log.text.slice(0, 2000)}, ${log.commandId ?? null},
              ${log.outcome}, ${log.providerId ?? null}, ${log.createdAt})`,
        ]),
      );
      return;
    } catch (error) {
      deps.logger.error(
        { err: error },
        'device command hand-over and its log row could not be written together',
      );
    }
  }
  await deps.db.execute(handedOver);
  if (log !== null) await logMessages(deps, [log]);
}

/**
 * The read that confirms a change on a model that documents no reply to it (`confirmation: 'read_back'`),
 * sent right after the change through the same gateway, under its own key. Its answer confirms the command
 * (reply-matching.ts); if it cannot leave, the command's reply is simply overdue and the attempt is repeated,
 * change and read (nothing is confirmed without a reading).
 */
async function sendConfirmRead(
  deps: QueueDeps,
  entry: ReturnType<typeof gatewaysOf>[number],
  send: NonNullable<Step['send']>,
  barrierId: number,
): Promise<void> {
  const read = send.confirmRead;
  if (!read) return;
  const logged = { barrierId, direction: 'out', text: read.loggedText, commandId: send.commandId } as const;
  try {
    const sent = await entry.gateway.send({ to: send.to, text: read.text, key: read.key });
    if (!sent?.duplicate)
      deps.metrics.smsSent.inc({ provider: entry.gateway.name, gateway: entry.name, purpose: 'device' });
    await logMessages(deps, [
      { ...logged, outcome: 'sent', providerId: sent?.providerId ?? null, createdAt: deps.clock.now() },
    ]);
  } catch (error) {
    deps.metrics.smsFailed.inc({ provider: entry.gateway.name, gateway: entry.name, purpose: 'device' });
    await logMessages(deps, [{ ...logged, outcome: 'gateway_failed', createdAt: deps.clock.now() }]);
    deps.logger.warn(
      { barrierId, commandId: send.commandId, gateway: entry.name, err: error },
      'confirming read could not be sent; the change is sent again when its reply is overdue',
    );
  }
}
