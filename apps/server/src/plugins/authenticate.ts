/**
 * Bearer authentication. Every authenticated call re-reads the user and the session in one query, so that a
 * logout, a platform-wide block or an account deletion takes effect at once, not when the token expires.
 * That query is a prepared statement (it runs on every call) and reads the whole profile, so that
 * `GET /api/users/me/` needs no query of its own (consent to the current privacy policy included).
 */
import type { PhonePrivacy } from '@propusk/contracts/common';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/database.ts';
import { preparedStatement } from '../db/prepared.ts';
import { privacyConsents, sessions, users } from '../db/schema.ts';
import type { SessionGuardRole, SessionGuardValues } from '../db/session-guard.ts';
import { AccessTokenVerifier } from '../lib/access-token.ts';
import type { Dependencies } from '../lib/dependencies.ts';
import { forbidden, unauthorized } from '../lib/errors.ts';

export interface AuthenticatedUser {
  id: number;
  sessionId: string;
  role: 'user' | 'admin';
  phone: string;
  /** Profile fields as read at the start of this request. */
  fullName: string | null;
  phonePrivacy: PhonePrivacy;
  /** An administrator who must set a new password first (issue 29 part 9): his admin routes answer 403. */
  passwordChangeRequired: boolean;
  /** Whether the account has consented to the current privacy policy (docs/decisions/0022). */
  consentedToCurrentPolicy: boolean;
}

/**
 * The caller of a read that checks the session in its own statement (`db/session-guard.ts`): the token's
 * signature and times are checked, the session not yet. The read carries the guard's column and settles with
 * it; nothing of the read is answered before that (a hook refuses an unsettled answer).
 */
export class SessionInRead {
  private isSettled = false;

  constructor(
    /** The token's user: the read's filters use it, as they use the checked user's id. */
    readonly userId: number,
    /** Which guard the read carries: an administrator's read checks his role too. */
    readonly role: SessionGuardRole,
    private readonly sessionId: string,
    private readonly now: Date,
    /** The classic check (a statement of its own): throws 401 or 403, or fills `request.user`. */
    private readonly check: () => Promise<void>,
  ) {}

  get guardValues(): SessionGuardValues {
    return { sessionId: this.sessionId, sessionUserId: this.userId, sessionNow: this.now.toISOString() };
  }

  /**
   * `live`: the guard's column of the read's first row (undefined when it returned none). A live session
   * needs nothing more; otherwise the classic check answers (and throws 401 or 403 when the session is not).
   */
  async settle(live: boolean | undefined): Promise<void> {
    if (this.isSettled) return;
    if (live !== true) await this.check();
    this.isSettled = true;
  }

  get settled(): boolean {
    return this.isSettled;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthenticatedUser | null;
    sessionInRead: SessionInRead | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 unless a valid bearer token of a live session of an active user is sent. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** preHandler: as authenticate, and 403 unless the user is an administrator. */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
    /** preHandler of a read that checks the session in its own statement: the token only (SessionInRead). */
    authenticateInRead: (request: FastifyRequest) => Promise<void>;
    /** As authenticateInRead, for an administrator's read (his role checked by the read's guard). */
    requireAdminInRead: (request: FastifyRequest) => Promise<void>;
  }
}

/** The live session `sessionId` of user `userId`, with the user, unless revoked, expired or deleted. */
function sessionCheck(db: Database) {
  return preparedStatement(db, 'auth.session', () =>
    db
      .select({
        id: users.id,
        role: users.role,
        phone: users.phone,
        fullName: users.fullName,
        phonePrivacy: users.phonePrivacy,
        isActive: users.isActive,
        passwordChangeRequired: users.passwordChangeRequired,
        // Read here so that GET /api/users/me/ stays one query (an indexed probe of the consent's unique key).
        consented: sql<boolean>`exists (select 1 from ${privacyConsents} where ${privacyConsents.userId} = ${users.id} and ${privacyConsents.policyVersion} = ${sql.placeholder('policyVersion')})`,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.id, sql.placeholder('sessionId')),
          eq(sessions.userId, sql.placeholder('userId')),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, sql.placeholder('now')),
          isNull(users.deletedAt),
        ),
      )
      .limit(1),
  );
}

export const authenticatePlugin = fp(async (app: FastifyInstance, options: { deps: Dependencies }) => {
  const { deps } = options;
  app.decorateRequest('user', null);
  const tokens = new AccessTokenVerifier(deps.secrets.jwtVerifyKey);

  function bearerClaims(request: FastifyRequest, now: Date) {
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer\s+(\S+)$/i);
    if (!match?.[1]) throw unauthorized();
    const claims = tokens.verify(match[1], now);
    if (!claims) throw unauthorized('token_invalid');
    return claims;
  }

  async function checkSession(claims: { userId: number; sessionId: string }, now: Date) {
    const [row] = await sessionCheck(deps.db).execute({
      sessionId: claims.sessionId,
      userId: claims.userId,
      now: now.toISOString(),
      policyVersion: deps.config.privacyPolicy.version,
    });
    if (!row) throw unauthorized('token_invalid');
    if (!row.isActive) throw forbidden('user_blocked');
    return {
      id: row.id,
      sessionId: claims.sessionId,
      role: row.role,
      phone: row.phone,
      fullName: row.fullName,
      phonePrivacy: row.phonePrivacy,
      passwordChangeRequired: row.passwordChangeRequired,
      consentedToCurrentPolicy: row.consented,
    } satisfies AuthenticatedUser;
  }

  function requireAdminRole(user: AuthenticatedUser) {
    if (user.role !== 'admin') throw forbidden();
    // A weak password is changed before anything else of the administrator's (PATCH /api/users/me/password/).
    if (user.passwordChangeRequired) throw forbidden('password_change_required');
  }

  async function authenticate(request: FastifyRequest) {
    const now = deps.clock.now();
    request.user = await checkSession(bearerClaims(request, now), now);
  }

  function inRead(role: SessionGuardRole) {
    return async (request: FastifyRequest) => {
      const now = deps.clock.now();
      const claims = bearerClaims(request, now);
      request.sessionInRead = new SessionInRead(claims.userId, role, claims.sessionId, now, async () => {
        const user = await checkSession(claims, now);
        if (role === 'admin') requireAdminRole(user);
        request.user = user;
      });
    };
  }

  app.decorate('authenticate', authenticate);
  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    await authenticate(request);
    if (request.user) requireAdminRole(request.user);
  });
  app.decorateRequest('sessionInRead', null);
  const userInRead = inRead('user');
  const adminInRead = inRead('admin');
  app.decorate('authenticateInRead', userInRead);
  app.decorate('requireAdminInRead', adminInRead);
  // Nothing a read made is answered before its session is settled: a route that forgot to is a 500, never its
  // data. Attached to those routes only (every other answer skips the hook).
  app.addHook('onRoute', (route) => {
    const handlers = [route.preHandler].flat();
    if (!handlers.some((handler) => handler === userInRead || handler === adminInRead)) return;
    route.preSerialization = [...[route.preSerialization ?? []].flat(), settledBeforeAnswer];
  });
});

function settledBeforeAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: Error | null, payload?: unknown) => void,
) {
  if (reply.statusCode < 400 && request.sessionInRead && !request.sessionInRead.settled) {
    done(new Error(`${request.routeOptions.url}: answered before its session was settled`));
  } else done(null, payload);
}

/** The caller of a route that ran `authenticateInRead` or `requireAdminInRead`. */
export function sessionInRead(request: FastifyRequest): SessionInRead {
  if (!request.sessionInRead) throw unauthorized();
  return request.sessionInRead;
}

/** The authenticated user of a route that ran `authenticate`. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
