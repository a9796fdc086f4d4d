/**
 * How a domain module hears what became of the commands it follows, without the engine importing it (issue
 * 30 part 9, docs/decisions/0025): the module registers a hook once at start-up (src/domain-hooks.ts, called
 * by buildApp and by the device processing), and the engine calls it inside the transaction that settles the
 * command. The engine knows no domain module; a domain module knows the engine.
 */
import type { ReadReply } from '@propusk/devices/readback';
import type { Executor } from '../db/database.ts';
import type { Dependencies } from '../lib/dependencies.ts';
import type { ReadCommandPayload } from './plan/read-commands.ts';

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
 * What the engine's settling needs in order to reach the hooks. Nothing yet: the hooks are still registered
 * into this file's maps; they become a typed dependency given when the engine's dependencies are built.
 */
export type HookDeps = object;

const settledHooks = new Map<string, CommandSettledHook>();
let unitTextHook: UnitTextHook | null = null;

/** The one taker of a unit's texts before alarms and replies (the conformance run's power step). */
export function onUnitText(hook: UnitTextHook): void {
  unitTextHook = hook;
}

export async function unitTextTaken(
  deps: Pick<Dependencies, 'db'>,
  barrier: { id: number; passwordSecret: string | null },
  text: string,
  now: Date,
): Promise<boolean> {
  const hook = unitTextHook;
  if (!hook) return false;
  return deps.db.transaction((tx) => hook(tx, barrier, text, now));
}
let readReplyHook: ReadReplyHook | null = null;

/** Every settled command (confirmed or failed) is told to `hook`; a second registration under `name` replaces it. */
export function onCommandSettled(name: string, hook: CommandSettledHook): void {
  settledHooks.set(name, hook);
}

/** The one receiver of read-back readings (the device checks). */
export function onReadReply(hook: ReadReplyHook): void {
  readReplyHook = hook;
}

export async function commandSettled(
  _deps: HookDeps,
  tx: Executor,
  command: SettledCommand,
  outcome: CommandOutcome,
  now: Date,
): Promise<void> {
  for (const hook of settledHooks.values()) await hook(tx, command, outcome, now);
}

export async function readReplied(
  deps: Pick<Dependencies, 'clock' | 'config'>,
  tx: Executor,
  payload: ReadCommandPayload,
  reply: ReadOutcome,
  now: Date,
): Promise<void> {
  // A reading nobody receives would leave its check «идёт чтение» for ever: fail loudly instead.
  if (!readReplyHook)
    throw new Error('No read-back hook is registered (src/domain-hooks.ts registerDomainHooks).');
  await readReplyHook(deps, tx, payload, reply, now);
}
