/**
 * The operator's privacy policy, consent to it and «Мои данные» (152-ФЗ, issue 28 part 6;
 * docs/decisions/0022). The policy's text is the operator's (PRIVACY_POLICY_FILE) and may be any language he
 * writes it in; everything else a person reads here is Russian.
 */
import { z } from 'zod';

export const PRIVACY_MESSAGES = {
  policyChanged: 'The privacy policy has changed: read its current version and consent again.',
} as const;

/** A policy version as the operator names it (PRIVACY_POLICY_VERSION) or as the server derives it. */
export const policyVersionSchema = z
  .string({ error: 'Policy version must be a string.' })
  .regex(/^[0-9A-Za-z._-]{1,64}$/, { error: 'Policy version is not valid.' });

export const privacyPolicySchema = z.object({
  version: z.string(),
  /** Markdown or plain text, as the operator wrote it. */
  text: z.string(),
});
export type PrivacyPolicyResponse = z.infer<typeof privacyPolicySchema>;

export const consentBodySchema = z.object({ policy_version: policyVersionSchema });
export const consentResponseSchema = z.object({
  policy_version: z.string(),
  accepted_at: z.string(),
});

export const MY_DATA_FORMATS = ['json', 'csv'] as const;
export type MyDataFormat = (typeof MY_DATA_FORMATS)[number];
export const myDataQuerySchema = z.object({
  format: z.enum(MY_DATA_FORMATS, { error: 'Format must be json or csv.' }).default('json'),
});
