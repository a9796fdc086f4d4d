/**
 * Access tokens: HS256 JWTs of 15 minutes carrying the user id (`sub`) and the session id (`sid`).
 *
 * Signing uses jose. Verification runs on every authenticated call, so it is done here with `node:crypto`
 * (a synchronous HMAC, ~13 µs) instead of jose's WebCrypto path (~80 µs of CPU even with the key imported
 * once, since Node runs WebCrypto HMAC as an asynchronous job). It accepts exactly what `signAccessToken`
 * makes and what jose would accept of it: three base64url parts, header `alg` HS256 and no `crit`, a
 * signature equal to the HMAC of `header.payload` (compared in constant time, in its one canonical
 * encoding), a JSON object payload with a numeric `exp` in the future, `nbf`/`iat` numeric when present.
 */
import { createHmac, type KeyObject, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';

export const ACCESS_TOKEN_SECONDS = 15 * 60;

export async function signAccessToken(
  key: Uint8Array,
  claims: { userId: number; sessionId: string },
  now: Date,
) {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TOKEN_SECONDS)
    .sign(key);
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function decodeJsonObject(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** What a well-signed token of our shape says, before its times are compared with the clock. */
interface SignedClaims {
  userId: number;
  sessionId: string;
  exp: number;
  nbf: number | undefined;
}

/** Everything verifyAccessToken checks except the clock: signature, header, claims' types. */
function signedClaims(key: KeyObject | Uint8Array, token: string): SignedClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  if (!BASE64URL.test(headerPart) || !BASE64URL.test(payloadPart) || !BASE64URL.test(signaturePart)) {
    return null;
  }
  const expected = Buffer.from(
    createHmac('sha256', key).update(`${headerPart}.${payloadPart}`).digest('base64url'),
  );
  const given = Buffer.from(signaturePart);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;

  const header = decodeJsonObject(headerPart);
  if (header?.alg !== 'HS256' || header.crit !== undefined) return null;
  const payload = decodeJsonObject(payloadPart);
  if (!payload) return null;
  if (!isNumber(payload.exp)) return null;
  if (payload.nbf !== undefined && !isNumber(payload.nbf)) return null;
  if (payload.iat !== undefined && !isNumber(payload.iat)) return null;

  const userId = Number(payload.sub);
  if (typeof payload.sub !== 'string' || !Number.isInteger(userId) || typeof payload.sid !== 'string') {
    return null;
  }
  return { userId, sessionId: payload.sid, exp: payload.exp, nbf: payload.nbf };
}

/** The token's times against the clock: not expired, and not before its `nbf`. */
function inTime(claims: SignedClaims, now: Date): { userId: number; sessionId: string } | null {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (claims.exp <= nowSeconds) return null;
  if (claims.nbf !== undefined && claims.nbf > nowSeconds) return null;
  return { userId: claims.userId, sessionId: claims.sessionId };
}

export function verifyAccessToken(
  key: KeyObject | Uint8Array,
  token: string,
  now: Date,
): { userId: number; sessionId: string } | null {
  const claims = signedClaims(key, token);
  return claims ? inTime(claims, now) : null;
}

/** Tokens an AccessTokenVerifier remembers at most (a few MB): beyond, the oldest is forgotten. */
export const REMEMBERED_TOKENS = 10_000;

/**
 * verifyAccessToken for every authenticated call, remembering the tokens whose signature it checked (issue
 * 44 part 5): a client sends the same token for its 15 minutes, and the HMAC, the base64 and the two JSON
 * parses were ~8% of the server's CPU on GET /api/users/me/. What it remembers depends on the token and the
 * key only (a signature stays valid), so it is never stale; the clock is compared on every call (an expired
 * token is refused and forgotten). Only accepted tokens are kept, at most `capacity`, the oldest forgotten
 * first, so nobody can fill it with made-up tokens. Whether the session is still live (a logout, a block, a
 * deletion) is not a property of the token: the session check asks the database on every call, as before.
 */
export class AccessTokenVerifier {
  private readonly accepted = new Map<string, SignedClaims>();

  constructor(
    private readonly key: KeyObject | Uint8Array,
    private readonly capacity = REMEMBERED_TOKENS,
  ) {}

  verify(token: string, now: Date): { userId: number; sessionId: string } | null {
    const remembered = this.accepted.get(token);
    if (remembered !== undefined) {
      const valid = inTime(remembered, now);
      if (!valid && remembered.exp <= Math.floor(now.getTime() / 1000)) this.accepted.delete(token);
      return valid;
    }
    const signed = signedClaims(this.key, token);
    const valid = signed ? inTime(signed, now) : null;
    if (!signed || !valid) return null;
    if (this.accepted.size >= this.capacity) {
      const oldest = this.accepted.keys().next();
      if (!oldest.done) this.accepted.delete(oldest.value);
    }
    this.accepted.set(token, signed);
    return valid;
  }

  /** How many tokens it remembers (for the tests). */
  get size(): number {
    return this.accepted.size;
  }
}
