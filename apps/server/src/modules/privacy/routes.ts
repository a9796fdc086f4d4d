import {
  consentBodySchema,
  consentResponseSchema,
  myDataQuerySchema,
  privacyPolicySchema,
} from '@propusk/contracts/privacy';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { errorResponses } from '../../plugins/error-responses.ts';
import { getPolicy, recordConsent } from './consent-service.ts';
import { downloadMyData, type MyDataFile } from './my-data.ts';

const tags = ['privacy'];

/** A download: an attachment nobody keeps (no proxy, no shared browser cache). */
function sendFile(reply: FastifyReply, file: MyDataFile) {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', file.disposition)
    .header('cache-control', 'no-store')
    .send(file.body);
}
const security = [{ bearer: [] }];

/** The operator's policy, consent to it and «Мои данные» (152-ФЗ, issue 28 part 6; docs/decisions/0022). */
export const privacyRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  app.get(
    '/api/privacy/policy/',
    {
      schema: {
        tags,
        summary: "The operator's current privacy policy (text and version); public",
        response: { 200: privacyPolicySchema },
      },
    },
    async () => getPolicy(deps),
  );

  app.post(
    '/api/users/me/consent/',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Consent to the current privacy policy (an account made without it: the spec’s client)',
        body: consentBodySchema,
        response: { 201: consentResponseSchema, ...errorResponses(401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await recordConsent(deps, currentUser(request), request.body.policy_version)),
  );

  app.get(
    '/api/users/me/data/',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary:
          'Everything stored about the caller (profile, phones, requests, history, openings, guest passes, consents) as a JSON or CSV file',
        querystring: myDataQuerySchema,
        response: errorResponses(401, 403),
      },
    },
    async (request, reply) =>
      sendFile(reply, await downloadMyData(deps, currentUser(request), request.query.format)),
  );
};
