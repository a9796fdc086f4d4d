/**
 * Bearer authentication. Every authenticated call re-reads the user and the session in one query, so that a
 * logout, a platform-wide block or an account deletion takes effect at once, not when the token expires.
 * That query is a prepared statement (it runs on every call) and reads the whole profile, so that
 * `GET /api/users/me/` needs no query of its own (consent to the current privacy policy included).
 */
import type { PhonePrivacy } from '@propusk/contracts/common';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/database.ts';
import { preparedStatement } from '../db/prepared.ts';
import { privacyConsents, sessions, users } from '../db/schema.ts';
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

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthenticatedUser | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 unless a valid bearer token of a live session of an active user is sent. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** preHandler: as authenticate, and 403 unless the user is an administrator. */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
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

  async function authenticate(request: FastifyRequest) {
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer\s+(\S+)$/i);
    if (!match?.[1]) throw unauthorized();
    const now = deps.clock.now();
    const claims = tokens.verify(match[1], now);
    if (!claims) throw unauthorized('token_invalid');
    const [row] = await sessionCheck(deps.db).execute({
      sessionId: claims.sessionId,
      userId: claims.userId,
      now: now.toISOString(),
      policyVersion: deps.config.privacyPolicy.version,
    });
    if (!row) throw unauthorized('token_invalid');
    if (!row.isActive) throw forbidden('user_blocked');
    request.user = {
      id: row.id,
      sessionId: claims.sessionId,
      role: row.role,
      phone: row.phone,
      fullName: row.fullName,
      phonePrivacy: row.phonePrivacy,
      passwordChangeRequired: row.passwordChangeRequired,
      consentedToCurrentPolicy: row.consented,
    };
  }

  app.decorate('authenticate', authenticate);
  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    await authenticate(request);
    if (request.user?.role !== 'admin') throw forbidden();
    // A weak password is changed before anything else of the administrator's (PATCH /api/users/me/password/).
    if (request.user.passwordChangeRequired) throw forbidden('password_change_required');
  });
});

/** The authenticated user of a route that ran `authenticate`. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
