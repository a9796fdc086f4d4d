/**
 * The session check as a column of a read's own statement (issue 44 part 5; docs/decisions/0040).
 *
 * `plugins/authenticate.ts` reads the session in a statement of its own before every call. The busiest reads
 * carry this column instead: `exists (…)` over the same conditions (the session neither revoked nor expired,
 * the user neither deleted nor blocked; for an administrator's route his role and no password change owed).
 * PostgreSQL evaluates it once per statement (an InitPlan: two primary-key probes), in the statement's own
 * snapshot. A read whose first row says `true` was made for a live session; any other answer (no row, or
 * `false`) is settled by the classic check, which then answers 401 or 403 exactly as before, or lets the read
 * through when the session is live (an empty page, a block lifted in between).
 *
 * Its placeholders (`sessionId`, `sessionUserId`, `sessionNow`) are its own; their values are the pending
 * session's `guardValues`.
 */
import { type SQL, sql } from 'drizzle-orm';

export type SessionGuardRole = 'user' | 'admin';

const sessionGuardPlaceholders = {
  sessionId: sql.placeholder('sessionId'),
  sessionUserId: sql.placeholder('sessionUserId'),
  sessionNow: sql.placeholder('sessionNow'),
};

/** The values of the guard's own placeholders. */
export interface SessionGuardValues {
  sessionId: string;
  sessionUserId: number;
  sessionNow: string;
}

export function sessionLiveColumn(role: SessionGuardRole): SQL<boolean> {
  // Written with aliases: the outer statement may read `users` too (a barrier's owner), and its name must not
  // be the one the sub-select's conditions find.
  const adminOnly =
    role === 'admin' ? sql.raw(` and gu.role = 'admin' and not gu.password_change_required`) : sql``;
  return sql<boolean>`exists (select 1 from sessions gs inner join users gu on gu.id = gs.user_id
    where gs.id = ${sessionGuardPlaceholders.sessionId} and gs.user_id = ${sessionGuardPlaceholders.sessionUserId}
      and gs.revoked_at is null and gs.expires_at > ${sessionGuardPlaceholders.sessionNow}
      and gu.deleted_at is null and gu.is_active${adminOnly})`;
}

/** What a repository needs of the caller's pending session (`plugins/authenticate.ts`'s SessionInRead). */
export interface SessionGuard {
  readonly role: SessionGuardRole;
  readonly guardValues: SessionGuardValues;
}

/** The guard's column for a statement of `guard`'s caller, or a constant `null` for a statement without. */
export function sessionLiveOrNull(guard: SessionGuard | undefined) {
  return guard ? sessionLiveColumn(guard.role) : sql<null>`null`;
}

/** The part of a prepared statement's key that tells a guarded statement (and its kind) from the plain one. */
export function guardKey(guard: SessionGuard | undefined): string {
  return guard ? `+live:${guard.role}` : '';
}

/**
 * Runs a page's prepared statement with its values, its limit and offset and the guard's values, and gives its
 * rows with the guard's answer (the first row's column; undefined without a row or a guard).
 */
export async function executeGuardedPage<Row extends { sessionLive: boolean | null }>(
  statement: { execute(values?: Record<string, unknown>): Promise<Row[]> },
  values: Record<string, unknown>,
  page: { limit: number; offset: number },
  guard: SessionGuard | undefined,
): Promise<{ rows: Row[]; sessionLive: boolean | undefined }> {
  const rows = await statement.execute({ ...values, ...page, ...guard?.guardValues });
  return { rows, sessionLive: rows[0]?.sessionLive ?? undefined };
}
