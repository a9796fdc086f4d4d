/**
 * Sessions: a refresh token is an opaque random secret (stored as its SHA-256), living 30 days and slid
 * forward on each refresh (which also rotates it, up to the session's absolute lifetime: see
 * `refreshAccessToken`); an access token is a 15-minute JWT naming the session.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { sessions } from '../../db/schema.ts';
import { signAccessToken } from '../../lib/access-token.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { randomToken, sha256 } from '../../lib/secrets.ts';

export const REFRESH_TOKEN_DAYS = 30;
const REFRESH_TOKEN_MS = REFRESH_TOKEN_DAYS * 24 * 60 * 60 * 1000;

export async function issueSession(
  deps: Pick<Dependencies, 'clock' | 'secrets'>,
  executor: Executor,
  userId: number,
): Promise<{ access_token: string; refresh_token: string }> {
  const now = deps.clock.now();
  const refreshToken = randomToken();
  const id = randomUUID();
  await executor.insert(sessions).values({
    id,
    userId,
    refreshTokenHash: sha256(refreshToken),
    createdAt: now,
    lastUsedAt: now,
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_MS),
  });
  const accessToken = await signAccessToken(deps.secrets.jwtKey, { userId, sessionId: id }, now);
  return { access_token: accessToken, refresh_token: refreshToken };
}

/**
 * Ends every live session of a user (platform block, account deletion, the operator's `set-password`), or every
 * one but `keep`: a password change ends the person's other sessions and keeps the one that made it (ASVS 3.3.3).
 */
export async function revokeUserSessions(
  executor: Executor,
  userId: number,
  now: Date,
  options: { keep?: string } = {},
): Promise<void> {
  await executor
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        options.keep === undefined ? undefined : ne(sessions.id, options.keep),
      ),
    );
}

export { REFRESH_TOKEN_MS };

/** The absolute lifetime of a session, from its login (docs/decisions/0012). */
export function sessionMaxAgeMs(config: Pick<Dependencies['config'], 'SESSION_MAX_AGE_DAYS'>): number {
  return config.SESSION_MAX_AGE_DAYS * 24 * 60 * 60 * 1000;
}
