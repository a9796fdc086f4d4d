/**
 * How a domain module hears what became of the commands it follows, without the engine importing it (issue
 * 30 part 9, docs/decisions/0025; issue 44 part 2): the module's hook is in `EngineHooks`, built with the
 * dependencies before the app (src/domain-hooks.ts), and the engine calls it inside the transaction that settles
 * the command. The engine knows no domain module; a domain module knows the engine.
 */
import type { ReadReply } from '@propusk/devices/readback';
import type { Executor } from '../db/database.ts';
import type { Dependencies } from '../lib/dependencies.ts';
import type { ReadCommandPayload } from './plan/index.ts';

export type CommandOutcome = { confirmed: true } | { confirmed: false; reason: string };

/** A command as its hooks see it when it is confirmed or failed. */
export interface SettledCommand {
  id: number;
  barrierId: number;
  kind: string;
  payload: unknown;
  attempts: number;
}

export type CommandSettledHook = (
  tx: Executor,
  command: SettledCommand,
  outcome: CommandOutcome,
  now: Date,
) => Promise<void>;

/** A read-back query's reading, or why it has none. */
export type ReadOutcome = ReadReply | { outcome: 'refused' | 'format_error' | 'no_reply' };

export type ReadReplyHook = (
  deps: Pick<Dependencies, 'clock' | 'config'>,
  tx: Executor,
  payload: ReadCommandPayload,
  reply: ReadOutcome,
  now: Date,
) => Promise<void>;

/**
 * An SMS from a live barrier's unit, before it is read as an alarm or a reply: a module that is waiting for
 * the unit's own texts (a conformance run's power step) takes it (true) in the transaction given.
 */
export type UnitTextHook = (
  tx: Executor,
  barrier: { id: number; passwordSecret: string | null },
  text: string,
  now: Date,
) => Promise<boolean>;

/**
 * What the engine calls up into the modules, built once with the dependencies, before the app and the device
 * worker (src/domain-hooks.ts `buildEngineHooks`), and read from them: nothing is registered at run time.
 */
export interface EngineHooks {
  /** Told of every settled command (confirmed or failed), in this order: the relay's openings, conformance runs. */
  commandSettled: readonly CommandSettledHook[];
  /** The one receiver of read-back readings (the device checks); absent, a reading fails loudly. */
  readReply?: ReadReplyHook | undefined;
  /** The one taker of a unit's texts before alarms and replies (the conformance run's power step). */
  unitText?: UnitTextHook | undefined;
}

/** The engine's hooks in the dependencies: declared here, since lib (beneath the engine) cannot name them. */
declare module '../lib/dependencies.ts' {
  interface Dependencies {
    /** Built with the dependencies (src/domain-hooks.ts `buildEngineHooks`): how the modules hear of their commands. */
    engineHooks: EngineHooks;
  }
}

/** What the engine's settling needs in order to reach the hooks. */
export type HookDeps = Pick<Dependencies, 'engineHooks'>;

export async function unitTextTaken(
  deps: Pick<Dependencies, 'db'> & HookDeps,
  barrier: { id: number; passwordSecret: string | null },
  text: string,
  now: Date,
): Promise<boolean> {
  const hook = deps.engineHooks.unitText;
  if (!hook) return false;
  return deps.db.transaction((tx) => hook(tx, barrier, text, now));
}

export async function commandSettled(
  deps: HookDeps,
  tx: Executor,
  command: SettledCommand,
  outcome: CommandOutcome,
  now: Date,
): Promise<void> {
  for (const hook of deps.engineHooks.commandSettled) await hook(tx, command, outcome, now);
}

export async function readReplied(
  deps: Pick<Dependencies, 'clock' | 'config'> & HookDeps,
  tx: Executor,
  payload: ReadCommandPayload,
  reply: ReadOutcome,
  now: Date,
): Promise<void> {
  // A reading nobody receives would leave its check «идёт чтение» for ever: fail loudly instead.
  const hook = deps.engineHooks.readReply;
  if (!hook) throw new Error('No read-back hook is given (src/domain-hooks.ts buildEngineHooks).');
  await hook(deps, tx, payload, reply, now);
}
