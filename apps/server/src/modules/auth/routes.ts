import {
  checkAdminBodySchema,
  checkAdminResponseSchema,
  loginBodySchema,
  loginResponseSchema,
  logoutBodySchema,
  passwordVerificationBodySchema,
  passwordVerificationResponseSchema,
  refreshBodySchema,
  refreshResponseSchema,
  requestCodeBodySchema,
  requestCodeResponseSchema,
  verifyCodeBodySchema,
  verifyCodeResponseSchema,
} from '@propusk/contracts/auth';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { errorResponses } from '../../plugins/error-responses.ts';
import {
  checkAdmin,
  login,
  logout,
  refreshAccessToken,
  requestCode,
  verifyAdminPassword,
  verifyCode,
} from './service.ts';

const tags = ['auth'];

export const authRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  /** The bearer token is optional on code requests; when sent it must be valid (see docs/decisions/0002). */
  const authenticateIfPresent = async (request: FastifyRequest) => {
    if (request.headers.authorization) await app.authenticate(request);
  };

  app.post(
    '/api/users/check_admin/',
    {
      schema: {
        tags,
        summary: 'Whether a phone belongs to an active administrator (decides the login path)',
        body: checkAdminBodySchema,
        response: { 200: checkAdminResponseSchema, ...errorResponses(429) },
      },
    },
    async (request) => checkAdmin(deps, { phone: request.body.phone, ip: request.ip }),
  );

  app.post(
    '/api/auth/codes/',
    {
      preHandler: authenticateIfPresent,
      schema: {
        tags,
        summary: 'Send a 6-digit code by SMS; answers the verification token (never the code)',
        body: requestCodeBodySchema,
        response: { 201: requestCodeResponseSchema, ...errorResponses(401, 403, 404, 429, 503) },
      },
    },
    async (request, reply) => {
      const result = await requestCode(deps, { ...request.body, ip: request.ip, caller: request.user });
      return reply.status(201).send(result);
    },
  );

  app.patch(
    '/api/auth/codes/verify/',
    {
      schema: {
        tags,
        summary: 'Check a code against its verification token',
        body: verifyCodeBodySchema,
        response: { 200: verifyCodeResponseSchema, ...errorResponses(403, 410, 429) },
      },
    },
    async (request) =>
      verifyCode(deps, {
        phone: request.body.phone,
        code: request.body.code,
        verificationToken: request.body.verification_token,
        ip: request.ip,
      }),
  );

  app.post(
    '/api/auth/login/',
    {
      schema: {
        tags,
        summary: 'Exchange a verified login token for an access and a refresh token',
        body: loginBodySchema,
        response: { 200: loginResponseSchema, ...errorResponses(403, 409, 410, 429) },
      },
    },
    async (request) =>
      login(deps, {
        phone: request.body.phone,
        verificationToken: request.body.verification_token,
        passwordNonce: request.body.password_nonce,
        consentVersion: request.body.consent_version,
        ip: request.ip,
      }),
  );

  app.post(
    '/api/auth/admin/password_verification/',
    {
      schema: {
        tags,
        summary:
          "An administrator's password step: answers a single-use `password_nonce` for the login (10 minutes)",
        body: passwordVerificationBodySchema,
        response: { 200: passwordVerificationResponseSchema, ...errorResponses(403, 429) },
      },
    },
    async (request) => verifyAdminPassword(deps, { ...request.body, ip: request.ip }),
  );

  app.post(
    '/api/auth/token/refresh/',
    {
      schema: {
        tags,
        summary:
          'A new access token and a rotated refresh token for a live session (slides the session 30 days)',
        body: refreshBodySchema,
        response: { 200: refreshResponseSchema, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => refreshAccessToken(deps, { refresh: request.body.refresh, ip: request.ip }),
  );

  app.post(
    '/api/auth/logout/',
    {
      schema: {
        tags,
        summary: 'Revoke the session of a refresh token',
        body: logoutBodySchema,
        response: { 204: z.null().describe('Logged out'), ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      await logout(deps, { refresh: request.body.refresh, ip: request.ip });
      return reply.status(204).send(null);
    },
  );
};
