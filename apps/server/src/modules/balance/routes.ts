import { errorSchema } from '@propusk/contracts/common';
import { balanceResponseSchema } from '@propusk/contracts/sms';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Dependencies } from '../../lib/dependencies.ts';

export const balanceRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  app.get(
    '/api/admin/balance/',
    {
      schema: {
        tags: ['balance'],
        summary: "The SMS gateway's balance",
        description: 'null when the gateway reports no balance (demo, Android) or cannot be reached now.',
        security: [{ bearer: [] }],
        response: { 200: balanceResponseSchema, 401: errorSchema, 403: errorSchema },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => {
      try {
        const balance = await deps.sms.balance();
        return balance
          ? { balance: balance.amount, currency: balance.currency }
          : { balance: null, currency: null };
      } catch (error) {
        request.log.warn({ err: error }, 'SMS gateway balance unavailable');
        return { balance: null, currency: null };
      }
    },
  );
};
