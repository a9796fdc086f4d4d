/**
 * «Проверка устройства по модели» of one of the administrator's barriers (issue 42). Types from
 * @propusk/contracts.
 */
import type { ConformanceResponse } from '@propusk/contracts/conformance';
import { api } from '../../../lib/api-client';

export type { ConformanceResponse };

export const conformanceQueryKey = (barrierId: number) => ['admin', 'conformance', barrierId] as const;

export function getConformance(barrierId: number) {
  return api.get(`/api/admin/barriers/${barrierId}/conformance/`) as Promise<ConformanceResponse>;
}

export function startConformance(barrierId: number, includePassword: boolean) {
  return api.post(`/api/admin/barriers/${barrierId}/conformance/`, {
    include_password: includePassword,
  }) as Promise<ConformanceResponse>;
}

export function stopConformance(barrierId: number) {
  return api.post(`/api/admin/barriers/${barrierId}/conformance/stop/`) as Promise<ConformanceResponse>;
}
