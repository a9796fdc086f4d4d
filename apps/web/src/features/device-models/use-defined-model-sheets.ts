import { installDefinedModels } from '@propusk/devices/defined-model';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type DeviceModelView, deviceModelsQueryKey, getDeviceModels } from './api/device-models-api';

/**
 * The administrator's own models, installed as sheets in this page (as the server installs them), so that
 * the barrier form and the settings form read a defined model as they read a built-in one.
 */
export function useDefinedModelSheets(): readonly DeviceModelView[] {
  const models = useQuery({ queryKey: deviceModelsQueryKey, queryFn: getDeviceModels });
  return useMemo(() => {
    const list = models.data?.models ?? [];
    installDefinedModels(list.map((model) => ({ id: model.id, definition: model.definition })));
    return list;
  }, [models.data]);
}
