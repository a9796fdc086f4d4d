import { errorSchema } from '@propusk/contracts/common';
import {
  androidWebhookBodySchema,
  inboundSmsBodySchema,
  inboundSmsResponseSchema,
} from '@propusk/contracts/sms';
import { verifyAndroidWebhookSignature } from '@propusk/sms/android';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ReplyResult } from '../../engine/reply/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { unauthorized } from '../../lib/errors.ts';
import {
  assertInboundToken,
  assertWebhookNotReplayed,
  receiveInboundSms,
  WEBHOOK_TOLERANCE_SECONDS,
} from './service.ts';

const rawBodies = new WeakMap<FastifyRequest, string>();

export const smsInboundRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  // The Android app signs the exact bytes it sent, so this plugin keeps them (its routes only).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    rawBodies.set(request, text);
    try {
      done(null, text === '' ? {} : JSON.parse(text));
    } catch (error) {
      done(Object.assign(error as Error, { statusCode: 400 }), undefined);
    }
  });

  app.post(
    '/api/sms/inbound/',
    {
      schema: {
        tags: ['sms'],
        summary: 'An SMS received from a device (reply to a command)',
        description:
          'Needs `Authorization: Bearer $INBOUND_SMS_TOKEN`. The SMS is stored and matched to the command in flight to the barrier whose device phone sent it.',
        security: [{ bearer: [] }],
        body: inboundSmsBodySchema,
        response: { 200: inboundSmsResponseSchema, 401: errorSchema },
      },
      preValidation: async (request) => assertInboundToken(deps, request.headers.authorization),
    },
    async (request) => {
      const result = await receiveInboundSms(deps, request.body);
      return { status: replyStatus(result) };
    },
  );

  app.post(
    '/api/sms/inbound/android/',
    {
      schema: {
        tags: ['sms'],
        summary: 'Webhook of the Android SMS Gateway app (event sms:received)',
        description:
          "Authenticated by `Authorization: Bearer $INBOUND_SMS_TOKEN`, or by the app's signature: `X-Signature` = hex HMAC-SHA256 of the body followed by `X-Timestamp`, keyed with INBOUND_SMS_TOKEN (set it as the signing key in the app). A signed request is accepted once (a replay gets 401 `webhook_replayed`). An SMS whose `payload.messageId` was delivered before (a retried webhook) gets 200 `duplicate` and is not matched again. Other events are acknowledged and ignored.",
        body: androidWebhookBodySchema,
        response: {
          200: inboundSmsResponseSchema.or(z.object({ status: z.literal('ignored') })),
          401: errorSchema,
        },
      },
      preValidation: async (request) => {
        const key = deps.config.INBOUND_SMS_TOKEN;
        if (request.headers.authorization) return assertInboundToken(deps, request.headers.authorization);
        const signature = header(request, 'x-signature');
        const timestamp = header(request, 'x-timestamp');
        const signed =
          key !== undefined &&
          verifyAndroidWebhookSignature({
            key,
            rawBody: rawBodies.get(request) ?? '',
            signature,
            timestamp,
            now: deps.clock.now(),
            toleranceSeconds: WEBHOOK_TOLERANCE_SECONDS,
          });
        if (!signed || signature === undefined || timestamp === undefined) throw unauthorized();
        // A signed request is accepted once: a copy within the window is a replay.
        await assertWebhookNotReplayed(deps, { signature, timestamp });
      },
    },
    async (request) => {
      const { event, payload } = request.body;
      const from = normalisePhone(payload?.phoneNumber);
      if (event !== 'sms:received' || !from || payload?.message === undefined)
        return { status: 'ignored' as const };
      // A retried webhook carries the same messageId: 200 `duplicate`, so the app stops retrying.
      const gatewayId = payload.messageId ? { gateway: 'android', messageId: payload.messageId } : undefined;
      const result = await receiveInboundSms(deps, { from, text: payload.message, gatewayId });
      return { status: replyStatus(result) };
    },
  );
};

function replyStatus(result: ReplyResult): 'matched' | 'unmatched' | 'duplicate' {
  if (result.duplicate) return 'duplicate';
  // The unit's own SMS (an alarm) was understood and taken in, as an answer is.
  return result.matched || result.alarm ? 'matched' : 'unmatched';
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The app reports numbers as the network gives them: `+79…`, `79…` or `89…`. */
function normalisePhone(value: string | undefined): string | null {
  const digits = value?.replace(/[^\d]/g, '') ?? '';
  if (/^[78]\d{10}$/.test(digits)) return `+7${digits.slice(1)}`;
  return null;
}
