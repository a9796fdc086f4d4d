/**
 * One push to one device (issue 43): the payload encrypted for the subscription (RFC 8291, aes128gcm) and
 * signed with the server's VAPID key by `web-push`, sent by our own fetch with a timeout. The push service's
 * answer decides: 2xx sent; 404/410 the subscription is dead (dropped); 429/5xx or no answer: retried by
 * the job queue; any other 4xx (a key the service refuses) is not retried.
 */
import type { PushPayload } from '@propusk/contracts/notifications';
import webpush from 'web-push';
import type { Dependencies } from '../../lib/dependencies.ts';

export type DeliveryOutcome = 'sent' | 'gone' | 'retry' | 'refused';

const TIMEOUT_MS = 10_000;
/** A day: a phone switched off overnight still gets the morning's news, not last week's. */
const TTL_SECONDS = 24 * 60 * 60;

export function vapidSubject(config: Dependencies['config']): string {
  return config.VAPID_SUBJECT ?? config.SITE_URL ?? 'mailto:admin@propusk.invalid';
}

export async function sendPush(
  deps: Pick<Dependencies, 'config' | 'secrets'>,
  subscription: { endpoint: string; p256dh: string; auth: string },
  payload: PushPayload,
  urgent: boolean,
): Promise<{ outcome: DeliveryOutcome; status: number | null }> {
  const { publicKey, privateKey } = deps.secrets.vapidKeys();
  const details = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    JSON.stringify(payload),
    {
      vapidDetails: { subject: vapidSubject(deps.config), publicKey, privateKey },
      TTL: TTL_SECONDS,
      urgency: urgent ? 'high' : 'normal',
      contentEncoding: 'aes128gcm',
    },
  );
  let response: Response;
  try {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers)) headers[name] = String(value);
    delete headers['Content-Length'];
    response = await fetch(details.endpoint, {
      method: 'POST',
      headers,
      body: details.body ? new Uint8Array(details.body) : null,
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'manual',
    });
    await response.arrayBuffer().catch(() => undefined);
  } catch {
    return { outcome: 'retry', status: null };
  }
  const status = response.status;
  if (status >= 200 && status < 300) return { outcome: 'sent', status };
  if (status === 404 || status === 410) return { outcome: 'gone', status };
  if (status === 429 || status >= 500) return { outcome: 'retry', status };
  return { outcome: 'refused', status };
}
