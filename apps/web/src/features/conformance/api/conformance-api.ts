/**
 * «Проверка устройства по модели» of one of the administrator's barriers (issue 42). Types from
 * @propusk/contracts.
 */
import type {
  ConformanceAnswer,
  ConformanceResponse,
  StartConformanceBody,
} from '@propusk/contracts/conformance';
import { api } from '../../../lib/api-client';

export type { ConformanceResponse };

export const conformanceQueryKey = (barrierId: number) => ['admin', 'conformance', barrierId] as const;

export function getConformance(barrierId: number) {
  return api.get(`/api/admin/barriers/${barrierId}/conformance/`) as Promise<ConformanceResponse>;
}

export function startConformance(barrierId: number, body: StartConformanceBody) {
  return api.post(`/api/admin/barriers/${barrierId}/conformance/`, body) as Promise<ConformanceResponse>;
}

/** The person's answer to the step that asks him (a call's «Открылось?», the power cut). */
export function answerConformance(barrierId: number, answer: ConformanceAnswer) {
  return api.post(`/api/admin/barriers/${barrierId}/conformance/answer/`, {
    answer,
  }) as Promise<ConformanceResponse>;
}

export function stopConformance(barrierId: number) {
  return api.post(`/api/admin/barriers/${barrierId}/conformance/stop/`) as Promise<ConformanceResponse>;
}
