/**
 * «Мои данные» (issue 28 part 6): every row stored about one user, read by his id only. Each query is bounded
 * by `userId` through its own column (phones.user_id, access_requests.user_id, actions.phone_owner_id,
 * gate_openings.user_id, guest_passes.created_by / for_user, privacy_consents.user_id, sessions.user_id), so
 * nothing of another user can come along. History of his phones is read without its author's id (the
 * administrator who made a change is not the resident's data).
 */
import { and, asc, eq, isNull, or } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import {
  accessRequests,
  actions,
  barriers,
  gateOpenings,
  guestPasses,
  phones,
  sessions,
  users,
} from '../../db/schema.ts';
import { listConsents } from './consent-repository.ts';

/** A person's data is not a paging problem, but a bound keeps one download from reading without end. */
const MAX_ROWS_PER_PART = 50_000;

export async function readMyData(executor: Executor, userId: number) {
  const [profile] = await executor
    .select({
      id: users.id,
      phone: users.phone,
      fullName: users.fullName,
      phonePrivacy: users.phonePrivacy,
      role: users.role,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
    })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));

  const phoneRows = await executor
    .select({
      id: phones.id,
      barrierId: phones.barrierId,
      barrierAddress: barriers.address,
      phone: phones.phone,
      name: phones.name,
      type: phones.type,
      startTime: phones.startTime,
      endTime: phones.endTime,
      schedule: phones.schedule,
      status: phones.status,
      isActive: phones.isActive,
      createdAt: phones.createdAt,
      deletedAt: phones.deletedAt,
    })
    .from(phones)
    .innerJoin(barriers, eq(barriers.id, phones.barrierId))
    .where(eq(phones.userId, userId))
    .orderBy(asc(phones.id))
    .limit(MAX_ROWS_PER_PART);

  const requestRows = await executor
    .select({
      id: accessRequests.id,
      barrierId: accessRequests.barrierId,
      barrierAddress: barriers.address,
      initiator: accessRequests.initiator,
      status: accessRequests.status,
      createdAt: accessRequests.createdAt,
      updatedAt: accessRequests.updatedAt,
    })
    .from(accessRequests)
    .innerJoin(barriers, eq(barriers.id, accessRequests.barrierId))
    .where(eq(accessRequests.userId, userId))
    .orderBy(asc(accessRequests.id))
    .limit(MAX_ROWS_PER_PART);

  const historyRows = await executor
    .select({
      id: actions.id,
      barrierId: actions.barrierId,
      phoneId: actions.phoneId,
      actionType: actions.actionType,
      author: actions.author,
      reason: actions.reason,
      oldValue: actions.oldValue,
      newValue: actions.newValue,
      createdAt: actions.createdAt,
    })
    .from(actions)
    .where(eq(actions.phoneOwnerId, userId))
    .orderBy(asc(actions.createdAt), asc(actions.id))
    .limit(MAX_ROWS_PER_PART);

  const openingRows = await executor
    .select({
      id: gateOpenings.id,
      barrierId: gateOpenings.barrierId,
      barrierAddress: barriers.address,
      via: gateOpenings.via,
      requestedAt: gateOpenings.requestedAt,
      status: gateOpenings.status,
      failure: gateOpenings.failure,
      confirmedAt: gateOpenings.confirmedAt,
    })
    .from(gateOpenings)
    .innerJoin(barriers, eq(barriers.id, gateOpenings.barrierId))
    .where(eq(gateOpenings.userId, userId))
    .orderBy(asc(gateOpenings.requestedAt), asc(gateOpenings.id))
    .limit(MAX_ROWS_PER_PART);

  const guestPassRows = await executor
    .select({
      id: guestPasses.id,
      barrierId: guestPasses.barrierId,
      barrierAddress: barriers.address,
      note: guestPasses.note,
      startTime: guestPasses.startTime,
      endTime: guestPasses.endTime,
      status: guestPasses.status,
      usedPhone: guestPasses.usedPhone,
      usedAt: guestPasses.usedAt,
      revokedAt: guestPasses.revokedAt,
      createdAt: guestPasses.createdAt,
    })
    .from(guestPasses)
    .innerJoin(barriers, eq(barriers.id, guestPasses.barrierId))
    .where(or(eq(guestPasses.createdBy, userId), eq(guestPasses.forUser, userId)))
    .orderBy(asc(guestPasses.id))
    .limit(MAX_ROWS_PER_PART);

  const sessionRows = await executor
    .select({
      createdAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(asc(sessions.createdAt))
    .limit(MAX_ROWS_PER_PART);

  return {
    profile,
    phones: phoneRows,
    requests: requestRows,
    history: historyRows,
    openings: openingRows,
    guestPasses: guestPassRows,
    consents: await listConsents(executor, userId),
    sessions: sessionRows,
  };
}

export type MyDataRows = Awaited<ReturnType<typeof readMyData>>;
