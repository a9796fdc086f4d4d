/**
 * The operator's privacy policy, consent to it and «Мои данные» (server decision 0022). Types only from
 * @propusk/contracts, so that zod stays out of the login chunk.
 */
import type { consentResponseSchema, MyDataFormat, privacyPolicySchema } from '@propusk/contracts/privacy';
import { queryOptions } from '@tanstack/react-query';
import { api, apiDownload } from '../../../lib/api-client';

export const privacyPolicyQueryKey = ['privacy', 'policy'] as const;

export function getPrivacyPolicy() {
  return api.get<typeof privacyPolicySchema>('/api/privacy/policy/', { auth: false });
}

export const privacyPolicyQueryOptions = queryOptions({
  queryKey: privacyPolicyQueryKey,
  queryFn: getPrivacyPolicy,
  // Read fresh whenever it is shown: a consent must name the version the person actually read.
  staleTime: 0,
});

/** Consent of a logged-in account made without it (the spec's client) or asked again for a new version. */
export function giveConsent(policyVersion: string) {
  return api.post<typeof consentResponseSchema>('/api/users/me/consent/', { policy_version: policyVersion });
}

export function downloadMyData(format: MyDataFormat) {
  return apiDownload('/api/users/me/data/', { format }, `propusk-my-data.${format}`);
}
