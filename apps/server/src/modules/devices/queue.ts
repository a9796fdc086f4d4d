/**
 * The device command queue: the `device_commands` table is the queue of record, and these functions are
 * the only ones that move a command along (queued → sent → confirmed | failed). Each runs in short
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
 * have got it. The worker (src/jobs) calls these when woken; tests call them directly with a manual clock.
 */
import { isDeepStrictEqual } from 'node:util';
import { nextChangeAt } from '@propusk/devices/access';
import { renderCommand } from '@propusk/devices/commands';
import { maskSecrets } from '@propusk/devices/mask';
import { type DeviceModel, isDeviceModel } from '@propusk/devices/models';
import { commandFromJson, type PlannedCommandJson } from '@propusk/devices/planner';
import type { DeviceProfileOverride } from '@propusk/devices/profile';
import { parseReadReply, renderReadQuery } from '@propusk/devices/readback';
import { chooseRepliedCommand } from '@propusk/devices/reply-choice';
import { changesPasswordTo, renderSetting } from '@propusk/devices/settings';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import {
  barriers,
  commandDueSql,
  commandRankSql,
  deviceCommands,
  deviceSlots,
  inboundSms,
  phones,
} from '../../db/schema.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { type ReadCommandPayload, recordReadReply } from '../device-checks/service.ts';
import {
  HOLD_RETRY_MAX_MS,
  OPENING_EXPIRED,
  OPENING_SEND_WINDOW_MS,
  queueRankSql,
  relayCommandSettled,
} from '../relay/commands.ts';
import { DEVICE_NOT_UNDERSTOOD, DEVICE_REFUSED_PASSWORD } from './device-log.ts';
import { insertDeviceMessages, type NewDeviceMessage } from './device-log-repository.ts';
import {
  arrayLiteral,
  ensureBuckets,
  GATEWAY_DOWN_MS,
  gatewaysOf,
  lastSenderOf,
  markGatewayDown,
  needsKnownSender,
  sendRankOf,
  type TokenRequest,
  takeSendTokens,
} from './gateway-rate.ts';
import { loadModelAndSpecs, lockBarrier, syncBarrierDevice, WHITELIST_COMMAND_KINDS } from './outbox.ts';
import { commandsAwaitingReply, joinReadParts, matchCommandReply } from './reply-matching.ts';
import { openSettingPayload, type SettingPayload } from './setting-payload.ts';

export type QueueDeps = Pick<
  Dependencies,
  'db' | 'sendDb' | 'clock' | 'config' | 'secrets' | 'sms' | 'smsGateways' | 'logger' | 'metrics'
>;

/**
 * The idempotency key of a command's attempt: the same attempt handed over twice is one message to a gateway
 * that deduplicates. The creation instant keeps keys apart across databases that reuse ids (a demo reset
 * with SMS_FILE kept). At most 36 characters (the Android gateway's limit on a message id).
 */
export function handOffKey(command: { id: number; createdAt: Date }, attempt: number): string {
  return `c${command.id}a${attempt}t${command.createdAt.getTime().toString(36)}`;
}

/** Test hooks: where a test makes the process "die" (an exception that nothing in the queue catches). */
export interface QueueFaults {
  /** After the gateway accepted the SMS, before its acceptance is recorded. */
  afterGatewayCall?: () => void;
}

/** Wait before sending again after the gateway refused or could not be reached. */
export const GATEWAY_RETRY_MS = 30_000;

/** Wait before the next attempt after attempt `attempts` got no reply. */
export function retryBackoffMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 15 * 60_000);
}

export type ProcessResult =
  | { state: 'idle' }
  | { state: 'sent'; commandId: number; replyDueAt: Date }
  | { state: 'waiting'; until: Date }
  | { state: 'gateway_failed'; commandId: number; retryAt: Date }
  /** No send token (the gateways' rate, a revocation first, or every allowed gateway down) until `until`. */
  | { state: 'throttled'; until: Date };

type CommandRow = typeof deviceCommands.$inferSelect;

interface BarrierRow {
  id: number;
  model: DeviceModel;
  devicePhone: string;
  passwordEncrypted: string | null;
  /** The barrier's device profile (number form, extra reply forms). */
  profile?: DeviceProfileOverride | null;
}

const barrierColumns = {
  id: barriers.id,
  model: barriers.deviceModel,
  devicePhone: barriers.devicePhone,
  passwordEncrypted: barriers.devicePasswordEncrypted,
  profile: barriers.deviceProfile,
};

function toBarrierRow(row: {
  id: number;
  model: string;
  devicePhone: string;
  passwordEncrypted: string | null;
  profile: unknown;
}): BarrierRow | null {
  if (!isDeviceModel(row.model)) return null;
  return { ...row, model: row.model, profile: (row.profile as DeviceProfileOverride | null) ?? null };
}

/** The barrier's device; with `lock`, under the barrier's row lock too (lockBarrier and this in one statement). */
async function loadBarrier(
  executor: Executor,
  barrierId: number,
  options: { lock?: boolean } = {},
): Promise<BarrierRow | null> {
  const query = executor.select(barrierColumns).from(barriers).where(eq(barriers.id, barrierId));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ? toBarrierRow(row) : null;
}

const isWhitelistKind = (kind: string) => (WHITELIST_COMMAND_KINDS as readonly string[]).includes(kind);
/** A read-back query of "Проверить устройство" (modules/device-checks). */
const isReadKind = (kind: string) => kind === 'read';

function devicePassword(deps: Pick<QueueDeps, 'secrets'>, barrier: BarrierRow): string | null {
  return barrier.passwordEncrypted ? deps.secrets.decrypt(barrier.passwordEncrypted) : null;
}

/**
 * The secrets a text to or from the device may carry: its password, and the new password of a password
 * change (in the command, and in the device's confirmation).
 */
function deviceSecrets(
  deps: Pick<QueueDeps, 'secrets'>,
  barrier: BarrierRow,
  command?: CommandRow,
): string[] {
  const secrets: string[] = [];
  const password = devicePassword(deps, barrier);
  if (password) secrets.push(password);
  if (command && !isWhitelistKind(command.kind) && !isReadKind(command.kind)) {
    const payload = command.payload as SettingPayload;
    try {
      const newPassword = changesPasswordTo(
        barrier.model,
        payload.setting,
        openSettingPayload(deps.secrets, payload),
      );
      if (newPassword) secrets.push(newPassword);
    } catch {
      // A payload that no longer opens carries nothing to mask.
    }
  }
  return secrets;
}

/** The SMS text of a command, rendered now (the clock command writes the sending time). */
function renderText(deps: QueueDeps, barrier: BarrierRow, command: CommandRow, now: Date): string {
  const password = devicePassword(deps, barrier);
  if (isWhitelistKind(command.kind)) {
    return renderCommand(barrier.model, commandFromJson(command.payload as PlannedCommandJson), password, {
      now,
      utcOffsetMinutes: deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
      profile: barrier.profile,
    });
  }
  if (isReadKind(command.kind)) {
    const payload = command.payload as ReadCommandPayload;
    return renderReadQuery(barrier.model, payload.query, password, barrier.profile);
  }
  const payload = command.payload as SettingPayload;
  const rendered = renderSetting(
    barrier.model,
    payload.setting,
    openSettingPayload(deps.secrets, payload),
    password,
  );
  if (!rendered.ok) throw new Error(`Setting ${payload.setting} no longer renders.`);
  return rendered.text;
}

/**
 * The command in flight, or the next to send: an emergency hold's (or its end's) first, then a due opening,
 * then the rest in the order stored (relay/commands.ts `queueRankSql`). A hold's command waits for at most
 * the one command already in flight.
 */
async function oldestOpenCommand(
  executor: Executor,
  barrierId: number,
  now: Date,
): Promise<CommandRow | undefined> {
  const [row] = await executor
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.barrierId, barrierId), inArray(deviceCommands.status, ['queued', 'sent'])))
    .orderBy(queueRankSql(now), asc(deviceCommands.id))
    .limit(1);
  return row;
}

/** The slot a command writes (null: none, as a setting). */
const slotOf = (command: CommandRow): number | null =>
  isWhitelistKind(command.kind) ? ((command.payload as { slot?: number }).slot ?? null) : null;

/**
 * A read that timed out with part of its range answered asks again for the missing slots only (issue 30
 * part 2): the span from the first to the last missing slot, the answered parts kept in `reply`.
 */
function narrowedRead(barrier: BarrierRow, command: CommandRow): { payload?: ReadCommandPayload } {
  if (!isReadKind(command.kind) || !command.reply) return {};
  const payload = command.payload as ReadCommandPayload;
  const whole = payload.whole ?? payload.query;
  const { missing } = joinReadParts(barrier, { payload, reply: command.reply }, '');
  const first = missing[0];
  const last = missing.at(-1);
  if (whole.kind !== 'range' || first === undefined || last === undefined) return {};
  return { payload: { ...payload, whole, query: { kind: 'range', from: first, to: last } } };
}

/** An opening whose CC can no longer leave in time (`OPENING_SEND_WINDOW_MS` after the tap). */
const openingExpired = (command: CommandRow, now: Date) =>
  command.kind === 'relay_open' && now.getTime() - command.createdAt.getTime() > OPENING_SEND_WINDOW_MS;

/** What a sending transaction decided for one barrier: the result, and the SMS to hand over if any. */
interface Step {
  result: ProcessResult;
  send?: PreparedSend['send'];
}

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
): Promise<ProcessResult> {
  const step = await sendBatcherOf(deps).decide(barrierId);
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
  // The attempt's acceptance, in its own statement: from here a retry is a new attempt with a new key.
  await deps.db
    .update(deviceCommands)
    .set({ handedOverAt: deps.clock.now() })
    .where(and(eq(deviceCommands.id, send.commandId), eq(deviceCommands.attempts, send.attempts)));
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
  await logMessages(deps, [
    { ...logged, outcome: 'sent', providerId: sent?.providerId ?? null, createdAt: deps.clock.now() },
  ]);
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

interface PreparedSend {
  result: ProcessResult;
  send: {
    to: string;
    text: string;
    loggedText: string;
    key: string;
    commandId: number;
    /** The request that stored the command (its X-Request-Id), for the log lines of its sending. */
    requestId: string | null;
    attempts: number;
    storedAt: Date;
    /** The gateway (config name) whose token this attempt took. */
    gateway: string;
    model: DeviceModel;
  };
}

/** For one barrier of a batch: its step, 'locked' (held by another transaction: again shortly), or a failure. */
type Decision = Step | 'locked' | { failed: unknown };

/** Barriers decided in one sending transaction at most (the rest wait for the next). */
const SEND_BATCH_MAX = 200;
/** A barrier locked by another transaction is tried again after this long (ms). */
const LOCKED_RETRY_MS = 20;

/**
 * Decides the sends of many barriers in one transaction (the DataLoader pattern): `decide` calls made while
 * a batch runs wait for the next one, which takes them all. One call per barrier goes in a batch; a second
 * call for the same barrier waits for the batch after (so it sees the first one's send). A barrier another
 * transaction holds (a writer, a reply) is skipped, not waited for, and tried again a moment later: a batch
 * never waits on one barrier, and never deadlocks with a transaction that locks several.
 */
/** A `decide` call waiting for its batch. */
interface Waiter {
  resolve: (step: Step) => void;
  reject: (error: unknown) => void;
}

class SendBatcher {
  private readonly waiting = new Map<number, Waiter[]>();
  private running = false;

  constructor(private readonly deps: QueueDeps) {}

  decide(barrierId: number): Promise<Step> {
    return new Promise<Step>((resolve, reject) => {
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

const batchers = new WeakMap<object, SendBatcher>();

/** One batcher per database (per process, per test app). */
function sendBatcherOf(deps: QueueDeps): SendBatcher {
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
async function decideSends(deps: QueueDeps, barrierIds: number[]): Promise<Map<number, Decision>> {
  const now = deps.clock.now();
  const timeoutMs = deps.config.DEVICE_REPLY_TIMEOUT_MS;
  const steps = new Map<number, Decision>();
  const alone: number[] = [];
  const db = deps.sendDb ?? deps.db;
  await db.transaction(async (tx) => {
    const rows = await tx
      .select(barrierColumns)
      .from(barriers)
      .where(inArray(barriers.id, barrierIds))
      .orderBy(asc(barriers.id))
      .for('update', { skipLocked: true });
    const locked = new Map(rows.map((row) => [row.id, toBarrierRow(row)]));
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
      const prepared = renderAttempt(deps, barrier, command, command.attempts + 1, now);
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
  return steps;
}

/** The attempt with the gateway whose token it took, or the wait for a token. */
function withGateway(prepared: PreparedSend, gateway: { name: string } | { throttled: ProcessResult }): Step {
  if ('throttled' in gateway) return { result: gateway.throttled };
  return { result: prepared.result, send: { ...prepared.send, gateway: gateway.name } };
}

/** One barrier's sending transaction, every case: what `decideSends` leaves to it. */
async function decideAlone(deps: QueueDeps, barrierId: number): Promise<Step> {
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
        // A hold's command is retried until confirmed or the hold ends; an opening is not retried late.
        const holding = command.kind === 'relay_hold';
        if (
          (!holding && command.attempts >= deps.config.DEVICE_MAX_ATTEMPTS) ||
          openingExpired(command, now)
        ) {
          await failCommand(tx, deps, command, 'No reply from the device.', now);
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
async function tokenRequest(
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
async function takeTokens(
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
function renderAttempt(
  deps: QueueDeps,
  barrier: BarrierRow,
  command: CommandRow,
  attempt: number,
  now: Date,
): PreparedSend | null {
  let text: string;
  try {
    text = renderText(deps, barrier, command, now);
  } catch (error) {
    deps.logger.error({ err: error, commandId: command.id }, 'device command cannot be rendered');
    return null;
  }
  return {
    result: {
      state: 'sent',
      commandId: command.id,
      replyDueAt: new Date(now.getTime() + deps.config.DEVICE_REPLY_TIMEOUT_MS),
    },
    send: {
      to: barrier.devicePhone,
      text,
      loggedText: maskSecrets(text, deviceSecrets(deps, barrier, command)),
      key: handOffKey(command, attempt),
      commandId: command.id,
      requestId: command.requestId,
      attempts: attempt,
      storedAt: command.createdAt,
      gateway: '',
      model: barrier.model,
    },
  };
}

/**
 * Attempt `attempt` of the command, rendered; a command that can no longer be written is failed in the
 * caller's transaction (null). The token statements that follow record the attempt (`takeTokens`), and
 * that transaction commits before the gateway call.
 */
async function prepareAttempt(
  tx: Executor,
  deps: QueueDeps,
  barrier: BarrierRow,
  command: CommandRow,
  attempt: number,
  now: Date,
): Promise<PreparedSend | null> {
  const prepared = renderAttempt(deps, barrier, command, attempt, now);
  if (prepared === null)
    await failCommand(tx, deps, command, 'The command could not be written.', now, { countAsSent: false });
  return prepared;
}

/**
 * Writes to the conversation log after the SMS was handed over (or refused). The log is for reading: a
 * failure to write it must not make the queue send the command again, so it is logged and dropped.
 */
async function logMessages(deps: QueueDeps, messages: NewDeviceMessage[]): Promise<void> {
  try {
    await insertDeviceMessages(deps.db, messages);
  } catch (error) {
    deps.logger.error({ err: error }, 'device message could not be written to the log');
  }
}

async function failCommand(
  tx: Executor,
  deps: Pick<QueueDeps, 'clock' | 'config'>,
  command: CommandRow,
  reason: string,
  now: Date,
  options: { countAsSent?: boolean } = {},
): Promise<void> {
  await tx
    .update(deviceCommands)
    .set({
      status: 'failed',
      lastError: reason,
      finishedAt: now,
      nextAttemptAt: null,
      // A command that could not even be written is settled like one that was sent in vain (quarantined).
      ...(options.countAsSent === false ? { attempts: Math.max(1, command.attempts) } : {}),
    })
    .where(eq(deviceCommands.id, command.id));
  await relayCommandSettled(tx, command, { confirmed: false, reason }, now);
  if (command.phoneId !== null) {
    await tx
      .update(phones)
      .set({ status: 'error', updatedAt: now })
      .where(and(eq(phones.id, command.phoneId), eq(phones.isActive, true)));
  }
  if (isWhitelistKind(command.kind))
    await syncBarrierDevice(tx, deps, command.barrierId, { enforceWeeklyLimit: false });
  if (isReadKind(command.kind)) {
    const failure =
      reason === DEVICE_REFUSED_PASSWORD
        ? 'refused'
        : reason === DEVICE_NOT_UNDERSTOOD
          ? 'format_error'
          : 'no_reply';
    await recordReadReply(deps, tx, command.payload as ReadCommandPayload, { outcome: failure }, now);
  }
}

async function confirmCommand(
  tx: Executor,
  deps: QueueDeps,
  barrier: BarrierRow,
  command: CommandRow,
  replyText: string,
  now: Date,
): Promise<void> {
  await tx
    .update(deviceCommands)
    .set({ status: 'confirmed', reply: replyText, finishedAt: now, nextAttemptAt: null, lastError: null })
    .where(eq(deviceCommands.id, command.id));
  await relayCommandSettled(tx, command, { confirmed: true }, now);
  if (isReadKind(command.kind)) {
    const payload = command.payload as ReadCommandPayload;
    const reading = parseReadReply(barrier.model, payload.whole ?? payload.query, replyText, barrier.profile);
    await recordReadReply(deps, tx, payload, reading, now);
    return;
  }
  if (!isWhitelistKind(command.kind)) {
    const payload = command.payload as SettingPayload;
    const newPassword = changesPasswordTo(
      barrier.model,
      payload.setting,
      openSettingPayload(deps.secrets, payload),
    );
    if (newPassword !== null) {
      await tx
        .update(barriers)
        .set({ devicePasswordEncrypted: deps.secrets.encrypt(newPassword), updatedAt: now })
        .where(eq(barriers.id, barrier.id));
    }
    return;
  }
  const planned = commandFromJson(command.payload as PlannedCommandJson);
  if (planned.kind === 'set_clock') {
    await tx.update(barriers).set({ deviceClockSetAt: now }).where(eq(barriers.id, barrier.id));
  } else if (planned.slot !== undefined) {
    if (planned.kind === 'delete') {
      await tx
        .delete(deviceSlots)
        .where(and(eq(deviceSlots.barrierId, barrier.id), eq(deviceSlots.slot, planned.slot)));
    } else if (planned.number !== undefined) {
      const values = {
        number: planned.number,
        windowStart: planned.window?.start ?? null,
        windowEnd: planned.window?.end ?? null,
        confirmedAt: now,
      };
      await tx
        .insert(deviceSlots)
        .values({ barrierId: barrier.id, slot: planned.slot, ...values })
        .onConflictDoUpdate({ target: [deviceSlots.barrierId, deviceSlots.slot], set: values });
    }
    if (command.phoneId !== null) {
      // The phone is in step once its slot holds it and nothing else for that slot is on its way.
      await tx.execute(sql`
        update ${phones} set status = 'ok', updated_at = ${now}
        where ${phones.id} = ${command.phoneId} and ${phones.isActive} and ${phones.slot} = ${planned.slot}
          and not exists (
            select 1 from ${deviceCommands} c
            where c.barrier_id = ${barrier.id} and c.status in ('queued', 'sent')
              and (c.payload->>'slot')::int = ${planned.slot}
          )`);
    }
  }
  await syncBarrierDevice(tx, deps, barrier.id, { enforceWeeklyLimit: false });
}

export interface ReplyResult {
  inboundId: number;
  /** The command this SMS answered, and how. */
  matched: {
    barrierId: number;
    commandId: number;
    /** `late`: it answered a command that had already finished; nothing changed. */
    outcome: 'confirmed' | 'refused' | 'format_error' | 'late';
  } | null;
  /** This SMS (same gateway, phone and gateway message id) was delivered before: nothing was done. */
  duplicate?: true;
}

/** An inbound SMS as its gateway names it; a second delivery with the same id is not handled again. */
export interface InboundGatewayId {
  /** Which gateway delivered it (`android`, `demo`). */
  gateway: string;
  /** The gateway's id of the SMS (the Android app's `payload.messageId`). */
  messageId: string;
}

/**
 * An SMS received from a device: stored, then matched against the command in flight to the barrier(s)
 * whose device phone sent it. A reply that arrives after its timeout (the command waits for a retry) still
 * counts. `Password Error!` fails the command at once: sending it again cannot help.
 */
export async function handleDeviceReply(
  deps: QueueDeps,
  message: { from: string; text: string; gatewayId?: InboundGatewayId | undefined },
): Promise<ReplyResult> {
  const now = deps.clock.now();
  const gatewayId = message.gatewayId;
  // One INSERT … ON CONFLICT on (gateway, phone, message id): of two deliveries of one SMS (a webhook retry,
  // or two in parallel) exactly one gets a row; the other is already handled and matches nothing.
  const [inbound] = await deps.db
    .insert(inboundSms)
    .values({
      fromPhone: message.from,
      text: message.text.slice(0, 2000),
      receivedAt: now,
      gateway: gatewayId?.gateway ?? null,
      gatewayMessageId: gatewayId?.messageId.slice(0, 200) ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: inboundSms.id });
  if (!inbound) {
    deps.logger.info(
      { gateway: gatewayId?.gateway, gatewayMessageId: gatewayId?.messageId.slice(0, 200) },
      'inbound SMS delivered again by its gateway: already handled',
    );
    return { inboundId: 0, matched: null, duplicate: true };
  }
  try {
    return await matchDeviceReply(deps, message, inbound.id, now);
  } catch (error) {
    // Not handled after all: forget its id, so that the gateway's retry of this delivery is taken in.
    if (gatewayId)
      await deps.db
        .delete(inboundSms)
        .where(eq(inboundSms.id, inbound.id))
        .catch(() => undefined);
    throw error;
  }
}

async function matchDeviceReply(
  deps: QueueDeps,
  message: { from: string; text: string },
  inboundId: number,
  now: Date,
): Promise<ReplyResult> {
  // The barriers with this device phone: the live one, and a deleted one only while it still clears its unit.
  // Found by `barriers_device_phone_idx`, a deleted one's commands looked up by barrier (a subplan under the
  // `or`); each one's command in flight is read under its lock below. No join with the open commands: with
  // stale statistics such a join could read every open command of every barrier.
  const candidates = await deps.db
    .select({ barrierId: barriers.id })
    .from(barriers)
    .where(
      and(
        eq(barriers.devicePhone, message.from),
        sql`(${barriers.deletedAt} is null or exists (select 1 from ${deviceCommands} c
          where c.barrier_id = ${barriers.id} and c.status in ('queued', 'sent')))`,
      ),
    )
    .orderBy(barriers.id);
  for (const { barrierId } of candidates) {
    const matched = await deps.db.transaction(async (tx) => {
      const barrier = await loadBarrier(tx, barrierId, { lock: true });
      if (!barrier) return null;
      const candidates = await commandsAwaitingReply(tx, barrierId, now);
      // A command's `reply` holds its answer (a failed one's too, once a late answer came): one answer each.
      const counted = candidates.map((command) => ({ ...command, replies: command.reply === null ? 0 : 1 }));
      const chosen = chooseRepliedCommand(
        counted,
        (command) => matchCommandReply(deps, barrier, command, message.text),
        (a, b) => a.kind === b.kind && isDeepStrictEqual(a.payload, b.payload),
        // A read-back makes every slot's earlier state moot, as a write to that slot does.
        (a, b) => a.kind === 'read' || b.kind === 'read' || slotOf(a) === slotOf(b),
      );
      if (chosen === null) return null;
      const { command, outcome } = chosen;
      if (chosen.late) {
        // An answer to a command that had already finished (a repeated delivery, or a reply after the
        // command failed): kept in the log, linked to its command, and it changes nothing.
        deps.metrics.unmatchedDeviceReplies.inc();
        if (command.reply === null)
          await tx
            .update(deviceCommands)
            .set({ reply: message.text })
            .where(eq(deviceCommands.id, command.id));
      } else if (outcome === 'confirmed' && command.kind === 'read') {
        // A part of a read's answer: kept until every slot of the range is answered.
        const joined = joinReadParts(barrier, command, message.text);
        if (joined.complete) await confirmCommand(tx, deps, barrier, command, joined.text, now);
        else
          await tx
            .update(deviceCommands)
            .set({ reply: joined.text })
            .where(eq(deviceCommands.id, command.id));
      } else if (outcome === 'confirmed') await confirmCommand(tx, deps, barrier, command, message.text, now);
      else if (outcome === 'refused') await failCommand(tx, deps, command, DEVICE_REFUSED_PASSWORD, now);
      else await failCommand(tx, deps, command, DEVICE_NOT_UNDERSTOOD, now);
      await insertDeviceMessages(tx, [
        {
          barrierId,
          direction: 'in',
          text: maskSecrets(message.text, deviceSecrets(deps, barrier, command)),
          outcome: chosen.late ? 'late' : outcome,
          commandId: command.id,
          createdAt: now,
        },
      ]);
      await tx.update(inboundSms).set({ commandId: command.id }).where(eq(inboundSms.id, inboundId));
      return { barrierId, commandId: command.id, outcome: chosen.late ? ('late' as const) : outcome };
    });
    if (matched) return { inboundId, matched };
  }
  deps.metrics.unmatchedDeviceReplies.inc();
  // The reply is already kept in inbound_sms: a failure to log it must not refuse the gateway's delivery.
  await logUnrecognisedReply(deps, message, now).catch((error: unknown) =>
    deps.logger.error({ err: error }, 'unrecognised device reply could not be written to the log'),
  );
  return { inboundId, matched: null };
}

/**
 * A reply from a device's number that answered no command in flight: kept in the log of every barrier with
 * that device phone (the live one, and a deleted one still clearing its device), shown as unrecognised.
 */
async function logUnrecognisedReply(deps: QueueDeps, message: { from: string; text: string }, now: Date) {
  const rows = await deps.db
    .select({
      id: barriers.id,
      model: barriers.deviceModel,
      devicePhone: barriers.devicePhone,
      passwordEncrypted: barriers.devicePasswordEncrypted,
      deletedAt: barriers.deletedAt,
      hasOpenCommands: sql<boolean>`exists (select 1 from ${deviceCommands} c where c.barrier_id = ${barriers.id} and c.status in ('queued', 'sent'))`,
    })
    .from(barriers)
    .where(eq(barriers.devicePhone, message.from));
  const messages: NewDeviceMessage[] = [];
  for (const row of rows) {
    if (row.deletedAt !== null && !row.hasOpenCommands) continue;
    const barrier = isDeviceModel(row.model) ? { ...row, model: row.model } : null;
    const command = barrier ? await oldestOpenCommand(deps.db, row.id, now) : undefined;
    messages.push({
      barrierId: row.id,
      direction: 'in',
      text: barrier ? maskSecrets(message.text, deviceSecrets(deps, barrier, command)) : message.text,
      outcome: 'unrecognised',
      createdAt: now,
    });
  }
  await logMessages(deps, messages);
}

/** Re-plans a barrier at a moment its desired whitelist may have changed by itself (a window opened or closed). */
export async function reconcileBarrier(
  deps: Pick<QueueDeps, 'db' | 'clock' | 'config'>,
  barrierId: number,
): Promise<number> {
  return deps.db.transaction(async (tx) => {
    await lockBarrier(tx, barrierId);
    return syncBarrierDevice(tx, deps, barrierId, { enforceWeeklyLimit: false });
  });
}

/**
 * Barriers the periodic sweep looks at: an open command, or phones whose access depends on time. In the
 * order the sweep hands their commands to the gateway (it drives one barrier after the other): a barrier
 * with a command that takes access away first, then the others; within each, the soonest deadline (a
 * window's start, else when the command was stored); then barrier id.
 * A barrier's own commands keep the planner's order (deletes, clock, adds by deadline), which keeps the
 * commands that depend on each other (a slot emptied, then written) in sequence.
 */
export async function barriersNeedingAttention(executor: Executor): Promise<number[]> {
  const withOpen = await barriersWithOpenCommands(executor);
  const timed = await executor
    .selectDistinct({ barrierId: phones.barrierId })
    .from(phones)
    .innerJoin(barriers, eq(barriers.id, phones.barrierId))
    .where(
      and(
        eq(phones.isActive, true),
        inArray(phones.type, ['temporary', 'schedule']),
        isNull(barriers.deletedAt),
      ),
    );
  const timedOnly = timed.map((row) => row.barrierId).sort((a, b) => a - b);
  return [...new Set([...withOpen, ...timedOnly])];
}

/** The queue's order across barriers (db/schema.ts: the same expressions as its index). */
const rankOfCommand = commandRankSql(deviceCommands.kind);
const dueOfCommand = commandDueSql(deviceCommands.dueAt, deviceCommands.createdAt);

/** Where a read of the order stopped (the last command entry read), to go on from there. */
export interface OpenOrderCursor {
  rank: number;
  /** The deadline as PostgreSQL wrote it (text): exact, where a JS Date would drop the microseconds. */
  due: string;
  barrierId: number;
}

/**
 * The first `limit` barriers with an open command in the queue's order (`barriersNeedingAttention`), read
 * from the front of the order's index: a barrier with a command that takes access away first (an emergency
 * hold before a revocation), then the others; within each, the soonest deadline (a window's start, else when
 * the command was stored); then barrier id. Only `among` when given; `skip` (barriers already handed out)
 * left out. Reads a few index entries per barrier, whatever the number of open commands elsewhere, so the
 * worker can ask for the head of the order at every send token. `done`: no barrier is left after these.
 */
export async function firstBarriersWithOpenCommands(
  executor: Executor,
  options: { limit: number; among?: readonly number[]; skip?: ReadonlySet<number>; after?: OpenOrderCursor },
): Promise<{ barrierIds: number[]; cursor: OpenOrderCursor | null; done: boolean }> {
  const found: number[] = [];
  const seen = new Set(options.skip ?? []);
  let cursor = options.after ?? null;
  // Several entries per barrier are common (a barrier's plan); read a few pages' worth at once.
  const pageSize = Math.min(5000, Math.max(64, options.limit * 4));
  for (;;) {
    const page = (await executor.execute(sql`
      select ${deviceCommands.barrierId} as barrier_id, ${rankOfCommand} as rank, ${dueOfCommand}::text as due
      from ${deviceCommands}
      where ${deviceCommands.status} in ('queued', 'sent')
        ${options.among ? sql`and ${deviceCommands.barrierId} = any(${arrayLiteral([...options.among])}::int[])` : sql``}
        ${cursor ? sql`and (${rankOfCommand}, ${dueOfCommand}, ${deviceCommands.barrierId}) > (${cursor.rank}, ${cursor.due}::timestamptz, ${cursor.barrierId})` : sql``}
      order by rank, ${dueOfCommand}, barrier_id
      limit ${pageSize}`)) as unknown as {
      rows: { barrier_id: number | string; rank: number | string; due: string }[];
    };
    for (const row of page.rows) {
      const barrierId = Number(row.barrier_id);
      cursor = { rank: Number(row.rank), due: row.due, barrierId };
      if (seen.has(barrierId)) continue;
      seen.add(barrierId);
      found.push(barrierId);
      if (found.length >= options.limit) return { barrierIds: found, cursor, done: false };
    }
    if (page.rows.length < pageSize) return { barrierIds: found, cursor, done: true };
  }
}

/** Every barrier with an open command, in the order of `barriersNeedingAttention`. */
export async function barriersWithOpenCommands(executor: Executor): Promise<number[]> {
  const { barrierIds } = await firstBarriersWithOpenCommands(executor, { limit: Number.POSITIVE_INFINITY });
  return barrierIds;
}

/** When the barrier's desired whitelist next changes by itself (null: never). */
export async function nextReconcileAt(
  deps: Pick<QueueDeps, 'db' | 'clock' | 'config'>,
  barrierId: number,
): Promise<Date | null> {
  const found = await loadModelAndSpecs(deps.db, barrierId);
  if (!found || !isDeviceModel(found.model)) return null;
  return nextChangeAt(found.model, found.specs, deps.clock.now(), deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES);
}
