/**
 * SMS.ru: `POST {url}/sms/send` and `{url}/my/balance` with `api_id` and `json=1`, form-encoded. The JSON
 * answer carries `status` ("OK" | "ERROR") and `status_code` (100 = done); per-number results sit under
 * `sms`. Codes of the account or the request (200–299) are permanent; 500+ and network failures are not.
 *
 * No idempotency: `sms/send` takes no id of the caller's (the only id is the `sms_id` SMS.ru assigns and
 * returns, which `sms/status` looks up), so a key is ignored and a message handed over twice is sent twice.
 */
import type { Balance, OutgoingSms, SentSms, SmsGateway } from './gateway.ts';
import { SmsGatewayError } from './gateway.ts';

export interface SmsRuOptions {
  apiId: string;
  /** Default https://sms.ru */
  url?: string;
  /** Sender name approved in the account (optional). */
  from?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

interface SmsRuAnswer {
  status?: string;
  status_code?: number;
  status_text?: string;
  balance?: number;
  sms?: Record<string, { status?: string; status_code?: number; status_text?: string; sms_id?: string }>;
}

export class SmsRuGateway implements SmsGateway {
  readonly name = 'smsru';
  readonly deduplicatesKeys = false;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: SmsRuOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  private async call(path: string, fields: Record<string, string>): Promise<SmsRuAnswer> {
    const url = `${(this.options.url ?? 'https://sms.ru').replace(/\/+$/, '')}${path}`;
    const body = new URLSearchParams({ api_id: this.options.apiId, json: '1', ...fields });
    let response: Response;
    try {
      response = await this.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new SmsGatewayError(`SMS.ru unreachable: ${(error as Error).message}`, true);
    }
    if (!response.ok) throw new SmsGatewayError(`SMS.ru answered ${response.status}`, response.status >= 500);
    const answer = (await response.json().catch(() => null)) as SmsRuAnswer | null;
    if (!answer) throw new SmsGatewayError('SMS.ru answered something that is not JSON', true);
    if (answer.status !== 'OK') {
      const code = answer.status_code ?? 0;
      throw new SmsGatewayError(`SMS.ru refused: ${code} ${answer.status_text ?? ''}`.trim(), code >= 500);
    }
    return answer;
  }

  async send(message: OutgoingSms): Promise<SentSms> {
    const to = message.to.replace(/^\+/, '');
    const answer = await this.call('/sms/send', {
      to,
      msg: message.text,
      ...(this.options.from ? { from: this.options.from } : {}),
    });
    const result = answer.sms?.[to];
    if (result?.status !== 'OK') {
      const code = result?.status_code ?? 0;
      throw new SmsGatewayError(
        `SMS.ru did not accept the message: ${code} ${result?.status_text ?? ''}`.trim(),
        code >= 500,
      );
    }
    return result.sms_id ? { providerId: result.sms_id } : {};
  }

  async balance(): Promise<Balance | null> {
    const answer = await this.call('/my/balance', {});
    return typeof answer.balance === 'number' ? { amount: answer.balance, currency: 'RUB' } : null;
  }
}
