/**
 * Adding one phone over the API (a resident's own, or an administrator's for a user of his barrier), with the
 * adds that wait for the same barrier's turn handled together (KeyedGroups): one transaction, one lock, one
 * check of the people and numbers, one read of the barrier's phones, one insert of the phones and one of their
 * actions, one device plan — instead of one of each per add. Every add gets the answer it would get alone:
 * the same rules in the same order (addPhoneLocked's), each add checked with the ones before it in the group
 * already added, so a refusal of one never refuses another.
 *
 * Handled one by one, each in its own transaction as before (`addAlone`): a group of one; a barrier with a
 * weekly SMS limit (whose check refuses a whole plan, so it must see one add at a time); a group whose
 * transaction failed for any reason (nothing of it was committed, so each add is tried again alone and gets its
 * own answer, e.g. a unique index that caught what the checks did not).
 */
import type { AddablePhoneType } from '@propusk/contracts/phones';
import type { Executor } from '../../db/database.ts';
import { actions, phones } from '../../db/schema.ts';
import { assertResidentSmsShare, smsSpender } from '../../engine/budget/index.ts';
import { loadCommittedSms, type SyncReport, syncBarrierDevice } from '../../engine/plan/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict } from '../../lib/errors.ts';
import { type GroupOutcome, KeyedGroups, outcomeOf } from '../../lib/keyed-groups.ts';
import { numberBlocked } from './blocked-numbers.ts';
import {
  admitPeople,
  batchLimitProblem,
  loadPhoneBatchContext,
  phoneProblemError,
  planPhoneBatch,
} from './phone-admission.ts';
import {
  type Actor,
  addPhoneLocked,
  barrierTurns,
  type LockedBarrier,
  lockLiveBarrier,
  newPhoneRow,
  phoneSnapshot,
} from './phone-changes.ts';
import { isTimedType, type NewPhone, type PhoneRow } from './phone-types.ts';
import * as repository from './repository.ts';

/** One add as the API asked for it. */
export interface PhoneAddRequest {
  side: 'user' | 'admin';
  callerId: number;
  /** Never `primary` (that comes with access, not through this add). */
  phone: NewPhone & { type: AddablePhoneType };
  /** The error when the phone's owner is not on the barrier (access may be lost before the lock). */
  noAccess: () => Error;
}

/** Adds of this process waiting for their barrier's turn, by barrier (`addsWaitingFor`). */
const waiting = new Map<number, number>();

function countWaiting(barrierId: number, change: number): void {
  const count = (waiting.get(barrierId) ?? 0) + change;
  if (count > 0) waiting.set(barrierId, count);
  else waiting.delete(barrierId);
}

/** How many adds to the barrier wait for its turn in this process (tests hold the turn and wait for them). */
export const addsWaitingFor = (barrierId: number): number => waiting.get(barrierId) ?? 0;

/** Whose share of the weekly SMS limit a change spends (sms-shares.ts): a resident's own, or the reserve. */
export const spenderOf = (tx: Executor, side: 'user' | 'admin', callerId: number, barrierId: number) =>
  side === 'user' ? smsSpender(tx, barrierId, callerId) : Promise.resolve(null);

/** A group's transaction cannot decide for its adds together: each is tried alone. */
class AloneInstead extends Error {}

/** The adds of one app, grouped per barrier's turn: built once with the routes, handed to each add. */
export type PhoneAdds = ReturnType<typeof createPhoneAdds>;

export function createPhoneAdds(deps: Dependencies) {
  const { db } = deps;
  const actorOf = (request: PhoneAddRequest): Actor => ({ author: request.side, userId: request.callerId });

  /** One add in its own transaction. */
  function addAlone(barrierId: number, request: PhoneAddRequest): Promise<PhoneRow> {
    return db.transaction(async (tx) => {
      const barrier = await lockLiveBarrier(tx, barrierId);
      // What the barrier's timed phones commit it to before the add (only read when it has an SMS limit).
      const committedBefore =
        barrier.limits.smsWeeklyLimit === null
          ? undefined
          : await loadCommittedSms(tx, deps, barrier.id, deps.clock.now());
      const spentBy = await spenderOf(tx, request.side, request.callerId, barrier.id);
      // A resident whose share is used up is refused before anything about the number (an add costs at
      // least one SMS now or ahead; the exact cost is checked by the sync below).
      const beforeNumber =
        spentBy !== null && barrier.limits.smsWeeklyLimit !== null
          ? () =>
              assertResidentSmsShare(
                tx,
                barrier.id,
                spentBy,
                1,
                deps.clock.now(),
                deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
              )
          : undefined;
      const added = await addPhoneLocked(tx, deps, barrier, request.phone, actorOf(request), 'manual', {
        noAccess: request.noAccess,
        beforeNumber,
      });
      // Over the weekly SMS limit, with what the new phone's windows will cost: 409, nothing stored. A
      // resident's own timed phone: its coming week's SMS count in his share (sms-shares.ts).
      const row =
        spentBy !== null && isTimedType(added.type)
          ? await repository.updatePhone(tx, added.id, { smsPaidBy: spentBy })
          : added;
      const report: SyncReport = { settledPhoneIds: [], settledAt: null };
      await syncBarrierDevice(tx, deps, barrier.id, {
        committedBefore,
        spentBy,
        weeklyLimit: barrier.limits.smsWeeklyLimit,
        report,
      });
      return asSettled(row, report);
    });
  }

  /** Several adds in one transaction; throws AloneInstead (rolled back) where they must go one by one. */
  function addTogether(barrierId: number, requests: PhoneAddRequest[]): Promise<GroupOutcome<PhoneRow>[]> {
    return db.transaction(async (tx) => {
      const barrier = await lockLiveBarrier(tx, barrierId);
      if (barrier.limits.smsWeeklyLimit !== null) throw new AloneInstead();
      const now = deps.clock.now();
      const people = await admitPeople(
        tx,
        barrier,
        requests.map((request) => ({ userId: request.phone.userId, number: request.phone.number })),
      );
      const context = await loadPhoneBatchContext(tx, barrier, now);
      const outcomes: GroupOutcome<PhoneRow>[] = [];
      const accepted: { index: number; request: PhoneAddRequest; slot: number }[] = [];
      for (const [index, request] of requests.entries()) {
        // addPhoneLocked's order: the owner's access, the barrier's limits, then the number and a free slot.
        const person = people[index];
        const limit = person?.hasAccess ? batchLimitProblem(context, barrier, request.phone) : null;
        const refusal = limit ? phoneProblemError(barrier, limit) : personRefusal(person, request);
        const [entry] = refusal ? [] : planPhoneBatch(context, barrier, [request.phone]);
        if (refusal) outcomes[index] = { ok: false, error: refusal };
        else if (!entry) throw new Error('no plan for a grouped add');
        else if (entry.problem)
          outcomes[index] = { ok: false, error: phoneProblemError(barrier, entry.problem) };
        else accepted.push({ index, request, slot: entry.slot });
      }
      // Each spender's adds, then their device plan (its new commands are his: `spent_by`); a resident's
      // spender is read once per group.
      const spenderOfCaller = new Map<string, number | null>();
      const spenders = new Map<number | null, typeof accepted>();
      for (const entry of accepted) {
        const key = `${entry.request.side}:${entry.request.callerId}`;
        if (!spenderOfCaller.has(key))
          spenderOfCaller.set(
            key,
            await spenderOf(tx, entry.request.side, entry.request.callerId, barrier.id),
          );
        const spender = spenderOfCaller.get(key) ?? null;
        spenders.set(spender, [...(spenders.get(spender) ?? []), entry]);
      }
      for (const [spentBy, entries] of spenders) {
        const rows = await insertPhones(tx, barrier, entries, spentBy, now);
        const report: SyncReport = { settledPhoneIds: [], settledAt: null };
        await syncBarrierDevice(tx, deps, barrier.id, { spentBy, weeklyLimit: null, report });
        entries.forEach((entry, position) => {
          outcomes[entry.index] = { ok: true, value: asSettled(rows[position]!, report) };
        });
      }
      return outcomes;
    });
  }

  /** The phones and their `add_phone` actions, in two statements; rows in the order of `entries`. */
  async function insertPhones(
    tx: Executor,
    barrier: LockedBarrier,
    entries: { request: PhoneAddRequest; slot: number }[],
    spentBy: number | null,
    now: Date,
  ): Promise<PhoneRow[]> {
    const inserted = await tx
      .insert(phones)
      .values(
        entries.map(({ request: { phone }, slot }) =>
          newPhoneRow(barrier.id, { ...phone, smsPaidBy: spentBy }, slot, now),
        ),
      )
      .returning();
    // Slots are distinct within the barrier: they pair each row with its add.
    const bySlot = new Map(inserted.map((row) => [row.slot, row]));
    const rows = entries.map((entry) => {
      const row = bySlot.get(entry.slot);
      if (!row) throw new Error('grouped phone not inserted');
      return row;
    });
    await tx.insert(actions).values(
      rows.map((row, position) => ({
        barrierId: barrier.id,
        phoneId: row.id,
        phoneOwnerId: row.userId,
        actionType: 'add_phone' as const,
        author: entries[position]!.request.side,
        authorUserId: entries[position]!.request.callerId,
        reason: 'manual' as const,
        oldValue: null,
        newValue: phoneSnapshot(row),
        createdAt: now,
      })),
    );
    return rows;
  }

  const groups = new KeyedGroups<number, PhoneAddRequest, PhoneRow>(
    barrierTurns,
    async (barrierId, requests) => {
      try {
        countWaiting(barrierId, -requests.length);
        if (requests.length === 1) return [await outcomeOf(() => addAlone(barrierId, requests[0]!))];
        try {
          return await addTogether(barrierId, requests);
        } catch {
          // Rolled back whatever it was: each add alone gets its own answer (the same error, where it is one).
          const outcomes: GroupOutcome<PhoneRow>[] = [];
          for (const request of requests) outcomes.push(await outcomeOf(() => addAlone(barrierId, request)));
          return outcomes;
        }
      } finally {
        deps.notifyDeviceCommands([barrierId]);
      }
    },
  );

  return {
    /** Adds the phone (or refuses it) as if alone, possibly in one transaction with other adds to the barrier. */
    add(barrierId: number, request: PhoneAddRequest): Promise<PhoneRow> {
      countWaiting(barrierId, 1);
      return groups.submit(barrierId, request);
    },
  };
}

/** Why one add of a group is refused before the barrier's rules: the owner's access, a blocked number, another account's number. */
function personRefusal(
  person: { hasAccess: boolean; blocked: boolean; otherAccount: boolean } | undefined,
  request: PhoneAddRequest,
): Error | null {
  if (!person) return new Error('no admission row for a grouped add');
  if (!person.hasAccess) return request.noAccess();
  if (person.blocked) return numberBlocked();
  if (person.otherAccount) return conflict('phone_of_other_account');
  return null;
}

/** The phone as its sync left it: pending with its command queued, or ok when its device needs nothing now. */
function asSettled(row: PhoneRow, report: SyncReport): PhoneRow {
  return report.settledPhoneIds.includes(row.id) && report.settledAt
    ? { ...row, status: 'ok' as const, updatedAt: report.settledAt }
    : row;
}
