/**
 * What to send next, for many barriers in one transaction (`SendBatcher`), and what to do with a command
 * whose reply is overdue (the same attempt again under its key, a retry after a backoff, or a failure).
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barriers, deviceCommands } from '../../db/schema.ts';
import { DEVICE_PHONE_ELSEWHERE } from '../log/index.ts';
import {
  type BarrierRow,
  barrierColumns,
  type CommandRow,
  displacedByConfirmedUnit,
  HOLD_RETRY_MAX_MS,
  isConformanceKind,
  isProbeKind,
  loadBarrier,
  OPENING_EXPIRED,
  OPENING_SEND_WINDOW_MS,
  oldestOpenCommand,
  type QueueDeps,
  queueRankSql,
  toBarrierRow,
} from '../plan/index.ts';
import { failCommand, NO_REPLY } from '../reply/index.ts';
import {
  ensureBuckets,
  gatewaysOf,
  lastSenderOf,
  needsKnownSender,
  sendRankOf,
  type TokenRequest,
  takeSendTokens,
} from './gateway-rate.ts';
import { reconcileAtOf, timedPhonesJsonSql } from './order.ts';
import { probeIfPasswordInDoubt } from './password-probe.ts';
import { narrowedRead, type PreparedSend, type ProcessResult, renderAttempt, type Step } from './render.ts';

export function retryBackoffMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 15 * 60_000);
}

export const openingExpired = (command: CommandRow, now: Date) =>
  command.kind === 'relay_open' && now.getTime() - command.createdAt.getTime() > OPENING_SEND_WINDOW_MS;

/** What a sending transaction decided for one barrier: the result, and the SMS to hand over if any. */

export type Decision = Decided | 'locked' | { failed: unknown };

/**
 * A barrier's step, and when its desired whitelist next changes by itself (`reconcileAt`, null: never), where
 * the sending transaction read it with the barrier's row (the worker then reads nothing more for it).
 */
export type Decided = Step & { reconcileAt?: Date | null };

/** Barriers decided in one sending transaction at most (the rest wait for the next). */
export const SEND_BATCH_MAX = 200;
/** A barrier locked by another transaction is tried again after this long (ms). */
export const LOCKED_RETRY_MS = 20;

/**
 * Decides the sends of many barriers in one transaction (the DataLoader pattern): `decide` calls made while
 * a batch runs wait for the next one, which takes them all. One call per barrier goes in a batch; a second
 * call for the same barrier waits for the batch after (so it sees the first one's send). A barrier another
 * transaction holds (a writer, a reply) is skipped, not waited for, and tried again a moment later: a batch
 * never waits on one barrier, and never deadlocks with a transaction that locks several.
 */
/** A `decide` call waiting for its batch. */
export interface Waiter {
  resolve: (step: Decided) => void;
  reject: (error: unknown) => void;
}

export class SendBatcher {
  private readonly waiting = new Map<number, Waiter[]>();
  private running = false;

  constructor(private readonly deps: QueueDeps) {}

  decide(barrierId: number): Promise<Decided> {
    return new Promise<Decided>((resolve, reject) => {
      const list = this.waiting.get(barrierId);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(barrierId, [{ resolve, reject }]);
      if (!this.running) void this.run();
    });
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.waiting.size > 0) {
        const batch = new Map<number, Waiter>();
        for (const [barrierId, list] of this.waiting) {
          if (batch.size >= SEND_BATCH_MAX) break;
          const first = list.shift();
          if (first) batch.set(barrierId, first);
          if (list.length === 0) this.waiting.delete(barrierId);
        }
        let steps: Map<number, Decision>;
        try {
          steps = await decideSends(this.deps, [...batch.keys()]);
        } catch (error) {
          for (const waiter of batch.values()) waiter.reject(error);
          continue;
        }
        for (const [barrierId, waiter] of batch) {
          const step = steps.get(barrierId) ?? { result: { state: 'idle' } };
          if (step !== 'locked' && 'failed' in step) {
            waiter.reject(step.failed);
            continue;
          }
          if (step !== 'locked') {
            waiter.resolve(step);
            continue;
          }
          setTimeout(() => {
            const list = this.waiting.get(barrierId);
            if (list) list.unshift(waiter);
            else this.waiting.set(barrierId, [waiter]);
            if (!this.running) void this.run();
          }, LOCKED_RETRY_MS).unref?.();
        }
      }
    } finally {
      this.running = false;
    }
  }
}

export const batchers = new WeakMap<object, SendBatcher>();

/** One batcher per database (per process, per test app). */
export function sendBatcherOf(deps: QueueDeps): SendBatcher {
  const db = deps.sendDb ?? deps.db;
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = new SendBatcher(deps);
    batchers.set(db, batcher);
  }
  return batcher;
}

/**
 * The sending transaction of a batch of barriers, on the send connections (Dependencies.sendDb). It locks the
 * barriers it can (skipping those another transaction holds: 'locked'), reads the head of each queue in one
 * statement, and for each barrier whose head is simply due, renders it; `takeSendTokens` then takes all their
 * tokens (in send-rank order) and records the attempts, in one read and one write. Whatever needs
 * more (a reply overdue, an opening too late, a text that no longer renders) is left to `decideAlone`, in
 * its own transaction after this one.
 */
export async function decideSends(deps: QueueDeps, barrierIds: number[]): Promise<Map<number, Decision>> {
  const now = deps.clock.now();
  const timeoutMs = deps.config.DEVICE_REPLY_TIMEOUT_MS;
  const steps = new Map<number, Decision>();
  const alone: number[] = [];
  const reconcileAts = new Map<number, Date | null>();
  const db = deps.sendDb ?? deps.db;
  await db.transaction(async (tx) => {
    const rows = await tx
      .select({ ...barrierColumns, timedPhones: sql<unknown>`${timedPhonesJsonSql(barriers.id)}` })
      .from(barriers)
      .where(inArray(barriers.id, barrierIds))
      .orderBy(asc(barriers.id))
      // The barrier lock's mode (lockBarrier, outbox.ts).
      .for('no key update', { skipLocked: true });
    const locked = new Map(rows.map(({ timedPhones: _timed, ...row }) => [row.id, toBarrierRow(row)]));
    for (const row of rows) reconcileAts.set(row.id, reconcileAtOf(deps, row.model, row.timedPhones, now));
    const missing = barrierIds.filter((barrierId) => !locked.has(barrierId));
    if (missing.length > 0) {
      // Not returned: held by another transaction, or not there at all (idle).
      const existing = await tx
        .select({ id: barriers.id })
        .from(barriers)
        .where(inArray(barriers.id, missing));
      for (const row of existing) steps.set(row.id, 'locked');
    }
    const lockedIds = [...locked.keys()];
    if (lockedIds.length === 0) return;
    const heads = await tx
      .selectDistinctOn([deviceCommands.barrierId])
      .from(deviceCommands)
      .where(
        and(inArray(deviceCommands.barrierId, lockedIds), inArray(deviceCommands.status, ['queued', 'sent'])),
      )
      .orderBy(deviceCommands.barrierId, queueRankSql(now), asc(deviceCommands.id));
    const headOf = new Map(heads.map((head) => [head.barrierId, head]));
    const due: { barrier: BarrierRow; command: CommandRow; prepared: PreparedSend }[] = [];
    for (const [barrierId, barrier] of locked) {
      const command = headOf.get(barrierId);
      if (!barrier || !command) {
        steps.set(barrierId, { result: { state: 'idle' } });
        continue;
      }
      if (command.status === 'sent') {
        const replyDueAt = new Date((command.sentAt ?? now).getTime() + timeoutMs);
        if (now < replyDueAt) steps.set(barrierId, { result: { state: 'waiting', until: replyDueAt } });
        else alone.push(barrierId);
        continue;
      }
      if (openingExpired(command, now)) {
        alone.push(barrierId);
        continue;
      }
      if (command.nextAttemptAt && command.nextAttemptAt > now) {
        steps.set(barrierId, { result: { state: 'waiting', until: command.nextAttemptAt } });
        continue;
      }
      // A barrier its unit never confirmed goes alone: its number may be a confirmed unit's elsewhere.
      const prepared =
        barrier.deviceConfirmedAt == null
          ? null
          : renderAttempt(deps, barrier, command, command.attempts + 1, now);
      if (prepared === null) alone.push(barrierId);
      else due.push({ barrier, command, prepared });
    }
    if (due.length === 0) return;
    const requests: TokenRequest[] = [];
    for (const { barrier, command, prepared } of due)
      requests.push(await tokenRequest(tx, deps, barrier, command, null, prepared.send.attempts));
    const taken = await takeTokens(tx, deps, requests, now);
    due.forEach(({ barrier, prepared }, index) => {
      steps.set(barrier.id, withGateway(prepared, taken[index]!));
    });
  });
  // After the commit: one of these failing must not take the batch's committed sends with it.
  for (const barrierId of alone) {
    try {
      steps.set(barrierId, await decideAlone(deps, barrierId));
    } catch (error) {
      steps.set(barrierId, { failed: error });
    }
  }
  for (const [barrierId, reconcileAt] of reconcileAts) {
    const step = steps.get(barrierId);
    if (step !== undefined && step !== 'locked' && !('failed' in step))
      steps.set(barrierId, { ...step, reconcileAt });
  }
  return steps;
}

/** The attempt with the gateway whose token it took, or the wait for a token. */
export function withGateway(
  prepared: PreparedSend,
  gateway: { name: string } | { throttled: ProcessResult },
): Step {
  if ('throttled' in gateway) return { result: gateway.throttled };
  return { result: prepared.result, send: { ...prepared.send, gateway: gateway.name } };
}

/** One barrier's sending transaction, every case: what `decideSends` leaves to it. */
export async function decideAlone(deps: QueueDeps, barrierId: number): Promise<Step> {
  const now = deps.clock.now();
  const timeoutMs = deps.config.DEVICE_REPLY_TIMEOUT_MS;
  return (deps.sendDb ?? deps.db).transaction(async (tx): Promise<Step> => {
    const barrier = await loadBarrier(tx, barrierId, { lock: true });
    if (!barrier) return { result: { state: 'idle' } };
    for (;;) {
      const command = await oldestOpenCommand(tx, barrierId, now);
      if (!command) return { result: { state: 'idle' } };
      if (command.status === 'sent') {
        const replyDueAt = new Date((command.sentAt ?? now).getTime() + timeoutMs);
        if (now < replyDueAt) return { result: { state: 'waiting', until: replyDueAt } };
        if (command.handedOverAt === null) {
          // Recorded, handed to the gateway, its answer never recorded (the process died in between): the
          // same attempt again, under the same key. No attempt is spent: the device may never have heard it.
          // The key means "same message" to the gateway that had it: that one again when it is up.
          const retry = await prepareAttempt(tx, deps, barrier, command, command.attempts, now);
          if (retry === null) continue;
          const request = await tokenRequest(tx, deps, barrier, command, command.gateway, command.attempts);
          return withGateway(retry, (await takeTokens(tx, deps, [request], now))[0]!);
        }
        // A probe is one SMS: unanswered, the unit does not hold that password either (password-probe.ts).
        // A conformance run's step is sent once: its silence is what the run records (issue 42).
        if (isProbeKind(command.kind) || isConformanceKind(command.kind)) {
          await failCommand(tx, deps, command, NO_REPLY, now);
          continue;
        }
        // Unanswered while the unit may hold another password: one read with it goes first.
        await probeIfPasswordInDoubt(tx, barrier, command, now);
        // A hold's command is retried until confirmed or the hold ends; an opening is not retried late.
        const holding = command.kind === 'relay_hold';
        // Sends answered by an answer that went to an older command owed one (reply-choice.ts, `replies`)
        // are not counted: the unit is answering, and such a command is not failed for an earlier one's debt.
        if (
          (!holding && command.attempts - command.replies >= deps.config.DEVICE_MAX_ATTEMPTS) ||
          openingExpired(command, now)
        ) {
          await failCommand(tx, deps, command, NO_REPLY, now);
          continue;
        }
        const backoff = retryBackoffMs(command.attempts);
        await tx
          .update(deviceCommands)
          .set({
            ...narrowedRead(barrier, command),
            status: 'queued',
            lastError: 'No reply from the device.',
            nextAttemptAt: new Date(
              now.getTime() + (holding ? Math.min(backoff, HOLD_RETRY_MAX_MS) : backoff),
            ),
          })
          .where(eq(deviceCommands.id, command.id));
        continue;
      }
      if (openingExpired(command, now)) {
        await failCommand(tx, deps, command, OPENING_EXPIRED, now);
        continue;
      }
      if (command.nextAttemptAt && command.nextAttemptAt > now) {
        return { result: { state: 'waiting', until: command.nextAttemptAt } };
      }
      const next = await prepareAttempt(tx, deps, barrier, command, command.attempts + 1, now);
      if (next === null) continue;
      const request = await tokenRequest(tx, deps, barrier, command, null, command.attempts + 1);
      return withGateway(next, (await takeTokens(tx, deps, [request], now))[0]!);
    }
  });
}

/**
 * The token request of the command's attempt `attempt`: through the gateway the device knows when its model
 * needs a known sender, else any; `preferred` first when it is up (a same-key hand-over).
 */
export async function tokenRequest(
  tx: Executor,
  deps: QueueDeps,
  barrier: BarrierRow,
  command: CommandRow,
  preferred: string | null,
  attempt: number,
): Promise<TokenRequest> {
  let names = gatewaysOf(deps).map((entry) => entry.name);
  if (needsKnownSender(barrier.model) && names.length > 1) {
    const last = await lastSenderOf(tx, barrier.id);
    if (last !== null && names.includes(last)) names = [last];
  }
  return {
    barrierId: barrier.id,
    commandId: command.id,
    attempt,
    rank: sendRankOf(command.kind),
    names,
    preferred,
  };
}

/**
 * Takes the tokens (gateway-rate.ts `takeSendTokens`, which records each granted attempt on its command). A
 * command every allowed gateway of which is down is not ready until one is back: adds are not held back for
 * it meanwhile.
 */
export async function takeTokens(
  tx: Executor,
  deps: QueueDeps,
  requests: TokenRequest[],
  now: Date,
): Promise<({ name: string } | { throttled: ProcessResult })[]> {
  await ensureBuckets(deps.db, tx, gatewaysOf(deps), now);
  const results = await takeSendTokens(tx, requests, now);
  for (const [index, request] of requests.entries()) {
    const result = results[index]!;
    if (result.ok || result.reason !== 'down') continue;
    await tx
      .update(deviceCommands)
      .set({ nextAttemptAt: result.retryAt })
      .where(and(eq(deviceCommands.id, request.commandId), eq(deviceCommands.status, 'queued')));
  }
  return results.map((result) =>
    result.ok ? { name: result.name } : { throttled: { state: 'throttled', until: result.retryAt } },
  );
}

/** Attempt `attempt` of the command, rendered now (nothing written); null when the text no longer renders. */

/**
 * Attempt `attempt` of the command, rendered; a command that can no longer be written is failed in the
 * caller's transaction (null). The token statements that follow record the attempt (`takeTokens`), and
 * that transaction commits before the gateway call.
 */
export async function prepareAttempt(
  tx: Executor,
  deps: QueueDeps,
  barrier: BarrierRow,
  command: CommandRow,
  attempt: number,
  now: Date,
): Promise<PreparedSend | null> {
  // The number a unit confirmed on another barrier first: nothing more is sent from this one.
  if (await displacedByConfirmedUnit(tx, barrier)) {
    await failCommand(tx, deps, command, DEVICE_PHONE_ELSEWHERE, now, { countAsSent: false });
    return null;
  }
  const prepared = renderAttempt(deps, barrier, command, attempt, now);
  if (prepared === null)
    await failCommand(tx, deps, command, 'The command could not be written.', now, { countAsSent: false });
  return prepared;
}
