import { addressSuggestQuerySchema, addressSuggestResponseSchema } from '@propusk/contracts/addresses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { AddressSuggestionService } from './service.ts';

export const addressRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  const service = new AddressSuggestionService(deps);
  app.get(
    '/api/addresses/suggest/',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['addresses'],
        summary: 'Address suggestions for the create-barrier form (DaData, or an offline source)',
        security: [{ bearer: [] }],
        querystring: addressSuggestQuerySchema,
        response: { 200: addressSuggestResponseSchema },
      },
    },
    async (request) => service.suggest(request.query),
  );
};
