/** The SMS balance block of the administrator profile (DESIGN.md section 7: the real balance, or unknown). */
import type { BalanceResponse, balanceResponseSchema } from '@propusk/contracts/sms';
import { api } from '../../../lib/api-client';

export type { BalanceResponse };

export const balanceQueryKey = ['admin', 'balance'] as const;

export function getBalance() {
  return api.get<typeof balanceResponseSchema>('/api/admin/balance/');
}
