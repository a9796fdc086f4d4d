/**
 * «Свои модели устройств» (issue 42 item 4): the administrator's own models, and whether a barrier's model is
 * a defined one not yet verified on its unit. Types from @propusk/contracts.
 */
import type {
  BarrierDefinedModel,
  DeviceModelView,
  ModelDefinition,
} from '@propusk/contracts/device-model-definition';
import { api } from '../../../lib/api-client';

export type { BarrierDefinedModel, DeviceModelView, ModelDefinition };

export const deviceModelsQueryKey = ['admin', 'device-models'] as const;
export const barrierDefinedModelQueryKey = (barrierId: number) =>
  ['admin', 'barrier-defined-model', barrierId] as const;

export function getDeviceModels() {
  return api.get('/api/admin/device-models/') as Promise<{ models: DeviceModelView[] }>;
}

/** `definition` from the editor, or `file`: an imported file's text. */
export type SaveDeviceModelBody = { definition: ModelDefinition } | { file: string };

export function saveDeviceModel(id: number | null, body: SaveDeviceModelBody) {
  return (
    id === null
      ? api.post('/api/admin/device-models/', body)
      : api.put(`/api/admin/device-models/${id}/`, body)
  ) as Promise<DeviceModelView>;
}

export function deleteDeviceModel(id: number) {
  return api.delete(`/api/admin/device-models/${id}/`) as Promise<{ ok: true }>;
}

export function exportDeviceModel(id: number) {
  return api.get(`/api/admin/device-models/${id}/export/`) as Promise<{
    file: Record<string, unknown>;
    name: string;
  }>;
}

export function getBarrierDefinedModel(barrierId: number) {
  return api.get(`/api/admin/barriers/${barrierId}/device-model/`) as Promise<BarrierDefinedModel>;
}
