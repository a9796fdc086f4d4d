/**
 * Which command a device's reply answers, and what that settles (issue 44 part 1, docs/decisions/0025): the
 * one decision the server calls once per barrier with the commands it loaded (sent within its reply window,
 * newest attempt first). Pure: the candidates are plain data, the settlement (writes, hooks) is the server's.
 *
 * How the reply matches each command, by kind (the strengths are `CommandReplyMatch`'s):
 * - a whitelist change (`add`, `add_window`, `delete`, `set_clock`): its documented reply, or the reading sent
 *   after it where the model confirms by reading (`matchWhitelistReply`);
 * - a setting (any other kind, a relay command included): its documented reply, strongest when it carries the
 *   command's own values (a new password);
 * - a read: the reading of its range (several lines 3, one line 1, a list 0); a password probe is answered as a
 *   read, but only by a text that names its own slots and no other;
 * - a conformance run's step: any text while it is open (`conformanceReplyMatch`).
 * The choice among them (which command, late or not, debts of nameless answers) is `reply-choice.ts`'s.
 *
 * `decideInbound` is the server's one entry (issue 44 part 1): the unit's own SMS (an alarm, a power failure or
 * its return: `alarms.ts`) first, which answers no command, then `decideReply`.
 */
import { type DeviceAlarmKind, recogniseAlarm } from './alarms.ts';
import { type ConformanceStep, conformanceReplyMatch } from './conformance.ts';
import { maskSecrets } from './mask.ts';
import { type DeviceModel, isDeviceModel } from './models.ts';
import { commandFromJson, type PlannedCommand, type PlannedCommandJson } from './planner.ts';
import type { DeviceProfileOverride } from './profile.ts';
import {
  joinReadAnswer,
  parseReadReply,
  probeAnswerOnly,
  type ReadQuery,
  type ReadReply,
} from './readback.ts';
import {
  type CommandReplyMatch,
  chooseRepliedCommand,
  type ReplyCandidate,
  type ReplyOutcome,
} from './reply-choice.ts';
import { changesPasswordTo, matchSettingReplyDetail } from './settings.ts';
import { matchWhitelistReply } from './whitelist-reply.ts';

/** The command kinds of the whitelist (the planner's); every kind not named here or below is a setting. */
export const WHITELIST_REPLY_KINDS = ['add', 'add_window', 'delete', 'set_clock'] as const;
export const READ_KIND = 'read';
/** A read written with another of the barrier's passwords (the server's password probe). */
export const PASSWORD_PROBE_KIND = 'password_probe';
/** A step of a conformance run (issue 42). */
export const CONFORMANCE_KIND = 'conformance';

const isWhitelistKind = (kind: string) => (WHITELIST_REPLY_KINDS as readonly string[]).includes(kind);
const isSettingKind = (kind: string) =>
  !isWhitelistKind(kind) && kind !== READ_KIND && kind !== PASSWORD_PROBE_KIND && kind !== CONFORMANCE_KIND;

/** A read's payload: the range asked now, and the range first asked once narrowed to the missing slots. */
export interface ReadReplyPayload {
  query: ReadQuery;
  whole?: ReadQuery;
}

/**
 * A command as the decision sees it. `payload` by kind: a whitelist change's `PlannedCommandJson`; a read's or
 * a probe's `{query, whole?}`; a run's step `{step}`; a setting's `{setting, params}` with every param readable
 * (the server opens a sealed password change before; a payload it cannot open is `null`: it matches nothing).
 */
export interface ReplyCommand extends ReplyCandidate {
  id: number;
  kind: string;
  /** The answer kept so far (a read's parts received; the first answer of a command already answered). */
  reply: string | null;
  payload: unknown;
}

export interface ReplyInput<C extends ReplyCommand> {
  model: DeviceModel;
  profile?: DeviceProfileOverride | null;
  /** The SMS as received. */
  text: string;
  /** When it arrived. */
  now: Date;
  /** The barrier's commands sent within the reply window, newest attempt first. */
  candidates: readonly C[];
  /** The clock's offset from UTC (a clock reply names local time). */
  utcOffsetMinutes?: number;
  /** The barrier's passwords, hidden in the text kept in the log (the command's new password is added). */
  secrets?: readonly (string | null | undefined)[];
}

/** What the server does with the command the reply answers. */
export type ReplySettlement =
  /** It had already finished: the reply is kept with it and changes nothing. */
  | { as: 'late' }
  /** A part of a read's answer: `text` (the parts so far) is kept until every slot of the range is answered. */
  | { as: 'read_part'; text: string }
  /**
   * Confirmed with `text` (a read's parts joined). `reading`: a read's answer; `newPassword`: the password a
   * setting wrote; `planned`: the whitelist change confirmed.
   */
  | {
      as: 'confirm';
      text: string;
      reading?: ReadReply;
      newPassword?: string;
      planned?: PlannedCommand;
    }
  /** The command's own answer where the reading sent after it confirms it: heard, nothing changes. */
  | { as: 'acknowledge' }
  /** The unit refused the password, or did not understand the command. */
  | { as: 'fail'; reason: 'refused' | 'format_error' };

export interface ReplyDecision<C extends ReplyCommand> {
  command: C;
  /** What the log says of the reply: its outcome, or `late`. */
  outcome: ReplyOutcome | 'late';
  settle: ReplySettlement;
  /**
   * The commands that heard one answer more: the one answered (unless it is a read's part or an
   * acknowledgement), and the command in flight when the answer paid an older command's debt (it may have
   * been its own answer: the debt moves to no later command).
   */
  answered: C[];
  /** The text as the log keeps it: the secrets it may carry hidden. */
  loggedText: string;
}

/** What `text` says about one command (null: not an answer to it). */
export function matchReplyToCommand(
  input: Pick<ReplyInput<ReplyCommand>, 'model' | 'profile' | 'utcOffsetMinutes'>,
  command: Pick<ReplyCommand, 'kind' | 'payload' | 'status'>,
  text: string,
): CommandReplyMatch | null {
  const { model, profile, utcOffsetMinutes } = input;
  try {
    if (command.kind === CONFORMANCE_KIND) {
      // A run's step takes a reply only while it is open: a finished one's silence was its verdict, and an
      // answer owed to it must not take the next step's (issue 42).
      if (command.status !== 'sent' && command.status !== 'queued') return null;
      const { step } = command.payload as { step: ConformanceStep };
      return conformanceReplyMatch(model, profile, step, text, { utcOffsetMinutes });
    }
    if (isWhitelistKind(command.kind))
      // Confirmed by its reply, or by the reading sent after it where the model documents no reply to the
      // change or its answer names nothing (0025, 0026).
      return matchWhitelistReply(model, commandFromJson(command.payload as PlannedCommandJson), text, {
        utcOffsetMinutes,
        profile: profile ?? null,
      });
    if (command.kind === READ_KIND || command.kind === PASSWORD_PROBE_KIND) {
      // A probe is answered as a read is, but only by a text that names its own slots and no other (a longer
      // read's answer names the probe's slots too when its range covers them: taken for the probe's, it
      // would adopt a password the unit does not hold).
      const { query } = command.payload as ReadReplyPayload;
      if (command.kind === PASSWORD_PROBE_KIND && !probeAnswerOnly(model, query, text, profile)) return null;
      const reading = parseReadReply(model, query, text, profile);
      if (reading === null) return null;
      if (reading.outcome === 'refused' || reading.outcome === 'format_error')
        return { outcome: reading.outcome, strength: 0 };
      // A list read (number-addressed models) names no slot. A range or slot read names the slots it covers:
      // several lines of its range are its answer (3: above an add that names one of those lines); one line
      // alone could be an add's or a delete's answer, which names it exactly and wins (1).
      if (reading.outcome !== 'read') return { outcome: 'confirmed', strength: 0 };
      return { outcome: 'confirmed', strength: reading.answered.length > 1 ? 3 : 1 };
    }
    const setting = command.payload as SettingReplyPayload | null;
    if (setting === null) return null;
    const found = matchSettingReplyDetail(model, setting.setting, setting.params, text);
    return found ? { outcome: found.outcome, strength: found.names ? 2 : 0 } : null;
  } catch {
    // A payload the server stored in another shape matches nothing.
    return null;
  }
}

interface SettingReplyPayload {
  setting: string;
  params: Record<string, string>;
}

/** The password a setting command writes, if it changes the password (null: none, or not a setting). */
function newPasswordOf(model: DeviceModel, command: Pick<ReplyCommand, 'kind' | 'payload'>): string | null {
  if (!isSettingKind(command.kind) || command.payload === null) return null;
  try {
    const { setting, params } = command.payload as SettingReplyPayload;
    return changesPasswordTo(model, setting, params);
  } catch {
    return null;
  }
}

/** Whether two commands write the same thing (the same kind and payload: slot, number and window). */
function sameEffect(a: ReplyCommand, b: ReplyCommand): boolean {
  return a.kind === b.kind && sameJson(a.payload, b.payload);
}

/** The slot a command writes (null: none, as a setting). */
const slotOf = (command: ReplyCommand): number | null =>
  isWhitelistKind(command.kind) ? ((command.payload as { slot?: number } | null)?.slot ?? null) : null;

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((key) => (a as Record<string, unknown>)[key] !== undefined);
  const keysB = Object.keys(b).filter((key) => (b as Record<string, unknown>)[key] !== undefined);
  if (keysA.length !== keysB.length) return false;
  return keysA.every(
    (key) =>
      Object.hasOwn(b, key) &&
      sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/**
 * The command `input.text` answers among `input.candidates`, and what that settles; null when it answers none
 * (the server logs it as unrecognised).
 */
export function decideReply<C extends ReplyCommand>(input: ReplyInput<C>): ReplyDecision<C> | null {
  const { model, profile, text, now } = input;
  // `replies` counts the answers heard for a command's sends; a command answered before the column was
  // counted has its answer in `reply`. The chooser reads the counted view; the caller gets its own objects.
  const counted = input.candidates.map((command) => ({
    command,
    kind: command.kind,
    payload: command.payload,
    status: command.status,
    attempts: command.attempts,
    sentAt: command.sentAt,
    replies: Math.max(command.replies, command.reply === null ? 0 : 1),
  }));
  const chosen = chooseRepliedCommand(counted, (entry) => matchReplyToCommand(input, entry, text), {
    now,
    sameEffect: (a, b) => sameEffect(a.command, b.command),
    // A read-back makes every slot's earlier state moot, as a write to that slot does.
    sameSlot: (a, b) =>
      a.kind === READ_KIND || b.kind === READ_KIND || slotOf(a.command) === slotOf(b.command),
  });
  if (chosen === null) return null;
  const { command } = chosen.command;
  const { outcome } = chosen;
  const loggedText = maskSecrets(text, [...(input.secrets ?? []), newPasswordOf(model, command)]);
  const paid = chosen.paidWhileInFlight ? [chosen.paidWhileInFlight.command] : [];
  const decided = (settle: ReplySettlement, counts: boolean): ReplyDecision<C> => ({
    command,
    outcome: chosen.late ? 'late' : outcome,
    settle,
    answered: [...(counts ? [command] : []), ...paid],
    loggedText,
  });
  if (chosen.late) return decided({ as: 'late' }, true);
  if (outcome === 'acknowledged') return decided({ as: 'acknowledge' }, false);
  if (outcome !== 'confirmed') return decided({ as: 'fail', reason: outcome }, true);
  if (command.kind === READ_KIND) {
    // A read's answer is joined from the parts received so far: kept until every slot of the range is named.
    const payload = command.payload as ReadReplyPayload;
    const whole = payload.whole ?? payload.query;
    const joined = joinReadAnswer(model, payload, command.reply ?? null, text, profile);
    if (!joined.complete) return decided({ as: 'read_part', text: joined.text }, false);
    const reading = parseReadReply(model, whole, joined.text, profile);
    return decided({ as: 'confirm', text: joined.text, reading }, true);
  }
  if (isWhitelistKind(command.kind))
    return decided(
      { as: 'confirm', text, planned: commandFromJson(command.payload as PlannedCommandJson) },
      true,
    );
  const newPassword = newPasswordOf(model, command);
  return decided({ as: 'confirm', text, ...(newPassword === null ? {} : { newPassword }) }, true);
}

/**
 * The live barrier whose unit sent the SMS, whose own texts (alarms) the SMS may be: its model as stored (one
 * the package does not know recognises none), its profile (power texts learnt by a conformance run), its
 * password (hidden in the text the log keeps).
 */
export interface InboundUnit {
  model: string;
  profile?: DeviceProfileOverride | null;
  secrets?: readonly (string | null | undefined)[];
}

/** What an SMS from a unit's number is: the unit's own text, an answer to one of the barrier's commands, or neither. */
export type InboundDecision<C extends ReplyCommand> =
  | { as: 'alarm'; kind: DeviceAlarmKind; loggedText: string }
  | { as: 'reply'; decision: ReplyDecision<C> }
  | null;

/**
 * The one decision on an SMS from a unit's number, for one barrier with that number and its candidates
 * (`decideReply`'s input): the live barrier's unit's own text first, whichever barrier's candidates are
 * weighed (a deleted barrier still clearing the unit is tried in its turn, and the unit's alarm is never
 * taken for its answer), then the command it answers.
 */
export function decideInbound<C extends ReplyCommand>(
  input: ReplyInput<C> & { unit: InboundUnit | null },
): InboundDecision<C> {
  const { unit } = input;
  if (unit && isDeviceModel(unit.model)) {
    const recognised = recogniseAlarm(unit.model, input.text, unit.profile ?? null);
    if (recognised)
      return { as: 'alarm', kind: recognised.kind, loggedText: maskSecrets(input.text, unit.secrets ?? []) };
  }
  const decision = decideReply(input);
  return decision === null ? null : { as: 'reply', decision };
}
