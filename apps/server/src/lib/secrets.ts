/**
 * The server key and what is derived from it: HMAC of codes and tokens, the JWT key, and the cipher of
 * device passwords. The key comes from SECRET_KEY or is generated once and kept in DATA_DIR/secret.key.
 */
import {
  createCipheriv,
  createDecipheriv,
  createECDH,
  createHash,
  createHmac,
  createSecretKey,
  hkdfSync,
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

  /**
   * The VAPID key pair of Web Push (issue 43, docs/decisions/0035), derived from the server key with HKDF:
   * the same on every process and after every restart, stored nowhere (PostgreSQL deployments may have no
   * DATA_DIR). A new SECRET_KEY makes a new pair: the browsers subscribe again at their next open.
   */
  vapidKeys(): { publicKey: string; privateKey: string } {
    if (this.vapid) return this.vapid;
    for (let counter = 0; ; counter += 1) {
      const scalar = Buffer.from(
        hkdfSync('sha256', this.secretKey, 'propusk-vapid', `p256-private-key:${counter}`, 32),
      );
      const ecdh = createECDH('prime256v1');
      try {
        // Rejected only when the scalar is 0 or not below the curve's order (about 2^-32 of the time).
        ecdh.setPrivateKey(scalar);
      } catch {
        continue;
      }
      this.vapid = {
        publicKey: ecdh.getPublicKey().toString('base64url'),
        privateKey: scalar.toString('base64url'),
      };
      return this.vapid;
    }
  }
  private vapid: { publicKey: string; privateKey: string } | null = null;

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
