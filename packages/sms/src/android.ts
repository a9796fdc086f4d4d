/**
 * The Android "SMS Gateway" app (sms-gate.app, local or cloud server): an Android phone with a SIM card
 * sends the SMS. Send: `POST {url}/message` with basic auth and `{"message", "phoneNumbers"}`; the app
 * answers 202 with the message id. Received SMS come to the server through the app's webhook
 * (`sms:received`), signed with HMAC-SHA256 over body + timestamp (see `verifyAndroidWebhookSignature`).
 * It has no balance.
 *
 * Idempotency: a message may carry its own `id` (at most 36 characters; "if not set - will be generated"),
 * and the gateway refuses a second message with an id it already has with 409 "Message with the same ID
 * already exists" (android-sms-gateway/server pull request 80; the app's local server since pull request 340
 * of capcom6/android-sms-gateway). The adapter sends the caller's key as that id and reads a 409 on a keyed
 * message as "accepted before, nothing sent now".
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Balance, OutgoingSms, SentSms, SmsGateway } from './gateway.ts';
import { SmsGatewayError } from './gateway.ts';

export interface AndroidGatewayOptions {
  /** e.g. `http://192.168.1.20:8080` (local server) or `https://api.sms-gate.app/3rdparty/v1`. */
  url: string;
  login: string;
  password: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export class AndroidSmsGateway implements SmsGateway {
  readonly name = 'android';
  readonly deduplicatesKeys = true;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: AndroidGatewayOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  async send(message: OutgoingSms): Promise<SentSms> {
    const url = `${this.options.url.replace(/\/+$/, '')}/message`;
    const authorization = `Basic ${Buffer.from(`${this.options.login}:${this.options.password}`).toString('base64')}`;
    let response: Response;
    try {
      response = await this.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify({
          ...(message.key === undefined ? {} : { id: message.key }),
          message: message.text,
          phoneNumbers: [message.to],
        }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new SmsGatewayError(`Android gateway unreachable: ${(error as Error).message}`, true);
    }
    if (response.status === 409 && message.key !== undefined)
      return { providerId: message.key, duplicate: true };
    if (!response.ok) {
      const temporary = response.status >= 500 || response.status === 429;
      throw new SmsGatewayError(`Android gateway answered ${response.status}`, temporary);
    }
    const body = (await response.json().catch(() => ({}))) as { id?: unknown };
    return typeof body.id === 'string' ? { providerId: body.id } : {};
  }

  async balance(): Promise<Balance | null> {
    return null;
  }
}

/**
 * Checks the app's webhook signature: `X-Signature` = hex HMAC-SHA256(key, rawBody + X-Timestamp), and the
 * timestamp (Unix seconds) within `toleranceSeconds` of `now`.
 */
export function verifyAndroidWebhookSignature(options: {
  key: string;
  rawBody: string;
  signature: string | undefined;
  timestamp: string | undefined;
  now: Date;
  toleranceSeconds?: number;
}): boolean {
  const { key, rawBody, signature, timestamp, now } = options;
  if (!signature || !timestamp || !/^\d+$/.test(timestamp) || !/^[0-9a-f]{64}$/i.test(signature))
    return false;
  const skew = Math.abs(now.getTime() / 1000 - Number(timestamp));
  if (skew > (options.toleranceSeconds ?? 300)) return false;
  const expected = createHmac('sha256', key)
    .update(rawBody + timestamp)
    .digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

export function signAndroidWebhook(key: string, rawBody: string, timestamp: string): string {
  return createHmac('sha256', key)
    .update(rawBody + timestamp)
    .digest('hex');
}
