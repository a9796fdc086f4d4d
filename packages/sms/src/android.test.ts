import { describe, expect, it } from 'vitest';
import { signAndroidWebhook, verifyAndroidWebhookSignature } from './android.ts';

describe('Android webhook signature', () => {
  const now = new Date('2026-11-21T09:00:00Z');
  const timestamp = String(now.getTime() / 1000);
  const body = '{"event":"sms:received","payload":{"message":"OK","phoneNumber":"+79161234567"}}';

  it('accepts the HMAC-SHA256 of body + timestamp under the shared key', () => {
    const signature = signAndroidWebhook('key-0123456789abcdef', body, timestamp);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(
      verifyAndroidWebhookSignature({
        key: 'key-0123456789abcdef',
        rawBody: body,
        signature,
        timestamp,
        now,
      }),
    ).toBe(true);
  });

  it('refuses another key, a changed body, a stale timestamp, or no signature', () => {
    const signature = signAndroidWebhook('key-0123456789abcdef', body, timestamp);
    const check = (overrides: Partial<Parameters<typeof verifyAndroidWebhookSignature>[0]>) =>
      verifyAndroidWebhookSignature({
        key: 'key-0123456789abcdef',
        rawBody: body,
        signature,
        timestamp,
        now,
        ...overrides,
      });
    expect(check({ key: 'another-key-000000000' })).toBe(false);
    expect(check({ rawBody: `${body} ` })).toBe(false);
    expect(check({ now: new Date(now.getTime() + 10 * 60_000) })).toBe(false);
    expect(check({ signature: undefined })).toBe(false);
    expect(check({ signature: 'zz' })).toBe(false);
  });
});
