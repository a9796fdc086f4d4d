import {
  changePasswordBodySchema,
  changePhoneBodySchema,
  changePhoneResponseSchema,
  deleteAccountBodySchema,
  passwordChangedResponseSchema,
  profileSchema,
  resetPasswordBodySchema,
  updateProfileBodySchema,
} from '@propusk/contracts/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { errorResponses } from '../../plugins/error-responses.ts';
import {
  changePassword,
  changePhone,
  deleteAccount,
  getProfile,
  resetPassword,
  updateProfile,
} from './service.ts';

const tags = ['profile'];
const security = [{ bearer: [] }];

export const userRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  app.get(
    '/api/users/me/',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'The own profile',
        response: { 200: profileSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => getProfile(deps, currentUser(request)),
  );

  app.patch(
    '/api/users/me/',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Change the own name and/or phone privacy',
        body: updateProfileBodySchema,
        response: { 200: profileSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => updateProfile(deps, currentUser(request), request.body),
  );

  app.delete(
    '/api/users/me/',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Delete the own account (needs a verified delete_account token)',
        body: deleteAccountBodySchema,
        response: { 204: z.null().describe('Account deleted'), ...errorResponses(401, 403, 409, 410) },
      },
    },
    async (request, reply) => {
      await deleteAccount(deps, currentUser(request), { verificationToken: request.body.verification_token });
      return reply.status(204).send(null);
    },
  );

  app.patch(
    '/api/users/me/phone/',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Move the account (and its primary phones) to a new number',
        body: changePhoneBodySchema,
        response: { 200: changePhoneResponseSchema, ...errorResponses(401, 403, 409, 410) },
      },
    },
    async (request) =>
      changePhone(deps, currentUser(request), {
        newPhone: request.body.new_phone,
        oldVerificationToken: request.body.old_verification_token,
        newVerificationToken: request.body.new_verification_token,
      }),
  );

  app.patch(
    '/api/users/me/password/',
    {
      // Not requireAdmin: an administrator who must replace his password does it here (issue 29 part 9); the
      // service refuses anyone but an administrator (403 admin_only).
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: "An administrator's password change (ends all his sessions)",
        body: changePasswordBodySchema,
        response: { 200: passwordChangedResponseSchema, ...errorResponses(401, 403, 410, 429) },
      },
    },
    async (request) =>
      changePassword(deps, currentUser(request), {
        oldPassword: request.body.old_password,
        newPassword: request.body.new_password,
        verificationToken: request.body.verification_token,
      }),
  );

  app.patch(
    '/api/users/me/password/reset/',
    {
      schema: {
        tags,
        summary: "An administrator's forgotten password, with a reset_password code (no login)",
        body: resetPasswordBodySchema,
        response: { 200: passwordChangedResponseSchema, ...errorResponses(403, 404, 410, 429) },
      },
    },
    async (request) =>
      resetPassword(deps, {
        phone: request.body.phone,
        newPassword: request.body.new_password,
        verificationToken: request.body.verification_token,
        ip: request.ip,
      }),
  );
};
