import { createHmac } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN_SECONDS,
  AccessTokenVerifier,
  signAccessToken,
  verifyAccessToken,
} from './access-token.ts';

const key = new Uint8Array(32).fill(7);
const otherKey = new Uint8Array(32).fill(8);
const now = new Date('2026-11-21T09:00:00.000Z');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const later = (delta: number) => new Date(now.getTime() + delta * 1000);

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
/** A token signed by hand, for headers and payloads that SignJWT would not make. */
function handMade(header: object, payload: object, signingKey: Uint8Array = key) {
  const signed = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  return `${signed}.${createHmac('sha256', signingKey).update(signed).digest('base64url')}`;
}
const claims = (overrides: object = {}) => ({
  sub: '12',
  sid: 'session-1',
  iat: seconds(now),
  exp: seconds(now) + ACCESS_TOKEN_SECONDS,
  ...overrides,
});

/** What jose says of the same token, at the same instant. */
async function joseAccepts(token: string, at: Date) {
  try {
    await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: at });
    return true;
  } catch {
    return false;
  }
}

describe('verifyAccessToken', () => {
  it('accepts the tokens signAccessToken makes, until they expire', async () => {
    const token = await signAccessToken(key, { userId: 12, sessionId: 'session-1' }, now);
    expect(verifyAccessToken(key, token, now)).toEqual({ userId: 12, sessionId: 'session-1' });
    expect(verifyAccessToken(key, token, later(ACCESS_TOKEN_SECONDS - 1))).not.toBeNull();
    expect(verifyAccessToken(key, token, later(ACCESS_TOKEN_SECONDS))).toBeNull();
    expect(verifyAccessToken(otherKey, token, now)).toBeNull();
  });

  it('refuses what jose refuses, and accepts what jose accepts, among tokens of our shape', async () => {
    const valid = await signAccessToken(key, { userId: 12, sessionId: 'session-1' }, now);
    const [header, payload, signature] = valid.split('.') as [string, string, string];
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const cases: Record<string, string> = {
      valid,
      'tampered payload': `${header}.${base64url(JSON.stringify(claims({ sub: '13' })))}.${signature}`,
      'tampered signature': `${header}.${payload}.${flipped}`,
      'missing signature': `${header}.${payload}.`,
      'two parts': `${header}.${payload}`,
      'four parts': `${valid}.x`,
      'not a token': 'not-a-jwt',
      'alg none': `${base64url(JSON.stringify({ alg: 'none' }))}.${payload}.`,
      'alg HS512': await new SignJWT(claims())
        .setProtectedHeader({ alg: 'HS512' })
        .sign(new Uint8Array(64).fill(7)),
      'wrong key': handMade({ alg: 'HS256', typ: 'JWT' }, claims(), otherKey),
      'crit header': handMade({ alg: 'HS256', crit: ['exp'] }, claims()),
      expired: handMade({ alg: 'HS256' }, claims({ exp: seconds(now) })),
      'not yet valid': handMade({ alg: 'HS256' }, claims({ nbf: seconds(now) + 60 })),
      'valid from now': handMade({ alg: 'HS256' }, claims({ nbf: seconds(now) })),
      'text iat': handMade({ alg: 'HS256' }, claims({ iat: 'yesterday' })),
      'payload not an object': handMade({ alg: 'HS256' }, ['sub', '12']),
    };
    for (const [name, token] of Object.entries(cases)) {
      const ours = verifyAccessToken(key, token, now) !== null;
      expect({ name, accepted: ours }).toEqual({ name, accepted: await joseAccepts(token, now) });
    }
  });

  it('needs a whole user id, a session id and an expiry', () => {
    expect(verifyAccessToken(key, handMade({ alg: 'HS256' }, claims({ sub: 'x' })), now)).toBeNull();
    expect(verifyAccessToken(key, handMade({ alg: 'HS256' }, claims({ sub: '1.5' })), now)).toBeNull();
    expect(verifyAccessToken(key, handMade({ alg: 'HS256' }, claims({ sid: 7 })), now)).toBeNull();
    const { exp: _exp, ...withoutExpiry } = claims();
    expect(verifyAccessToken(key, handMade({ alg: 'HS256' }, withoutExpiry), now)).toBeNull();
  });
});

describe('AccessTokenVerifier', () => {
  it('answers as verifyAccessToken on the first call and on every later one, the clock compared each time', async () => {
    const verifier = new AccessTokenVerifier(key);
    const token = await signAccessToken(key, { userId: 12, sessionId: 'session-1' }, now);
    const notYet = handMade({ alg: 'HS256' }, claims({ nbf: seconds(now) + 60 }));
    const forged = handMade({ alg: 'HS256', typ: 'JWT' }, claims(), otherKey);
    for (let call = 0; call < 2; call++) {
      expect(verifier.verify(token, now)).toEqual({ userId: 12, sessionId: 'session-1' });
      expect(verifier.verify(token, later(ACCESS_TOKEN_SECONDS - 1))).toEqual({
        userId: 12,
        sessionId: 'session-1',
      });
      expect(verifier.verify(forged, now)).toBeNull();
      expect(verifier.verify(notYet, now)).toBeNull();
      expect(verifier.verify('not-a-jwt', now)).toBeNull();
    }
    // Remembered, the token is still refused once expired, and then forgotten.
    expect(verifier.verify(token, later(ACCESS_TOKEN_SECONDS))).toBeNull();
    expect(verifier.size).toBe(0);
    expect(verifier.verify(notYet, later(60))).toEqual({ userId: 12, sessionId: 'session-1' });
  });

  it('remembers accepted tokens only, at most its capacity, forgetting the oldest first', async () => {
    const verifier = new AccessTokenVerifier(key, 2);
    const tokens = await Promise.all(
      [1, 2, 3].map((userId) => signAccessToken(key, { userId, sessionId: `s${userId}` }, now)),
    );
    for (const token of tokens) verifier.verify(token, now);
    verifier.verify(handMade({ alg: 'HS256' }, claims(), otherKey), now);
    expect(verifier.size).toBe(2);
    // The oldest was forgotten: checked again (by its signature), it is still accepted.
    expect(verifier.verify(tokens[0] as string, now)).toEqual({ userId: 1, sessionId: 's1' });
    expect(verifier.size).toBe(2);
  });
});
