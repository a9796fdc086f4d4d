/**
 * The server key and what is derived from it: HMAC of codes and tokens, the JWT key, and the cipher of
 * device passwords. The key comes from SECRET_KEY or is generated once and kept in DATA_DIR/secret.key.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  type KeyObject,
  randomBytes,
  randomInt,
} from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function loadOrCreateSecretKey(secretKey: string | undefined, dataDir: string): string {
  if (secretKey) return secretKey;
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const generated = randomBytes(48).toString('base64url');
  writeFileSync(file, generated, { mode: 0o600 });
  return generated;
}

export class Secrets {
  private readonly cipherKey: Buffer;
  readonly jwtKey: Uint8Array;
  /** The same key made once as a `KeyObject`, for the verification of every authenticated call. */
  readonly jwtVerifyKey: KeyObject;

  constructor(private readonly secretKey: string) {
    this.cipherKey = createHash('sha256').update(`cipher:${secretKey}`).digest();
    this.jwtKey = new Uint8Array(createHash('sha256').update(`jwt:${secretKey}`).digest());
    this.jwtVerifyKey = createSecretKey(this.jwtKey);
  }

  /** Keyed hash for short secrets (codes), so a database leak does not reveal them. */
  hmac(value: string): string {
    return createHmac('sha256', this.secretKey).update(value).digest('base64url');
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.cipherKey, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
  }

  decrypt(sealed: string): string {
    const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    if (!iv || !tag || !body) throw new Error('Malformed ciphertext');
    const decipher = createDecipheriv('aes-256-gcm', this.cipherKey, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  }
}

/** SHA-256 for long random tokens (they carry enough entropy without a key). */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');
/** Six digits from a cryptographic generator. */
export const randomCode = () => randomInt(0, 1_000_000).toString().padStart(6, '0');
