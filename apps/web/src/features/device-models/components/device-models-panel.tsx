import { Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { DEVICE_PROFILE_MAX_BYTES } from '@propusk/contracts/device-profile-file';
import {
  DEFINED_MODEL_PARAMETER_LABELS,
  DEFINED_MODEL_TEXTS as TEXTS,
} from '@propusk/contracts/texts/device-models';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { saveDownloadedFile } from '../../../components/export-buttons';
import { FileField } from '../../../components/file-field';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import {
  type DeviceModelView,
  deleteDeviceModel,
  deviceModelsQueryKey,
  exportDeviceModel,
  getDeviceModels,
  saveDeviceModel,
} from '../api/device-models-api';
import { EMPTY_DEFINITION, ModelEditor } from './model-editor';

const TOO_LARGE = 'Файл слишком большой: не больше 64 КБ.';

function ModelCard({ model, onEdit }: { model: DeviceModelView; onEdit: () => void }) {
  const queryClient = useQueryClient();
  const download = useMutation({
    mutationFn: async () => {
      const { file } = await exportDeviceModel(model.id);
      saveDownloadedFile({
        blob: new Blob([`${JSON.stringify(file, null, 2)}\n`], { type: 'application/json' }),
        filename: `propusk-model-${model.id}.json`,
      });
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteDeviceModel(model.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceModelsQueryKey }),
  });
  const failure = remove.error ?? download.error;
  return (
    <Card withBorder radius="md" data-testid="device-model">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {model.name}
        </Title>
        <Text size="sm">{TEXTS.capacity(model.definition.capacity)}</Text>
        <Text size="sm">{TEXTS.inUse(model.barriers)}</Text>
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={onEdit}>
            {TEXTS.edit}
          </Button>
          <Button size="xs" variant="default" loading={download.isPending} onClick={() => download.mutate()}>
            {TEXTS.exportFile}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            loading={remove.isPending}
            onClick={() => remove.mutate()}
          >
            {TEXTS.remove}
          </Button>
        </Group>
        <ErrorLine message={failure ? errorMessage(failure, { fallback: TEXTS.saveFailed }) : null} />
      </Stack>
    </Card>
  );
}

/** «Свои модели устройств»: the list, the editor of a new or chosen model, import from a file. */
export function DeviceModelsPanel() {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<DeviceModelView | 'new' | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const models = useQuery({ queryKey: deviceModelsQueryKey, queryFn: getDeviceModels });
  const upload = useMutation({
    mutationFn: async (chosen: File) => {
      if (chosen.size > DEVICE_PROFILE_MAX_BYTES) throw new Error(TOO_LARGE);
      return saveDeviceModel(null, { file: await chosen.text() });
    },
    onSuccess: () => {
      setFile(null);
      void queryClient.invalidateQueries({ queryKey: deviceModelsQueryKey });
    },
  });
  if (editing !== null) {
    return (
      <ModelEditor
        model={editing === 'new' ? null : editing}
        initial={editing === 'new' ? EMPTY_DEFINITION : editing.definition}
        onDone={() => setEditing(null)}
      />
    );
  }
  return (
    <Stack gap="sm">
      <Text size="sm">{TEXTS.explain}</Text>
      <ParameterList />
      <Button onClick={() => setEditing('new')}>{TEXTS.create}</Button>
      <QueryStatus
        isPending={models.isPending}
        error={models.error ? errorMessage(models.error, { fallback: TEXTS.loadFailed }) : null}
        onRetry={() => models.refetch()}
      />
      {models.data?.models.length === 0 ? <Text size="sm">{TEXTS.empty}</Text> : null}
      {models.data?.models.map((model) => (
        <ModelCard key={model.id} model={model} onEdit={() => setEditing(model)} />
      ))}
      <FileField
        label={TEXTS.importFile}
        placeholder={TEXTS.filePlaceholder}
        accept=".json,application/json"
        value={file}
        onChange={(chosen) => {
          setFile(chosen);
          upload.reset();
          if (chosen) upload.mutate(chosen);
        }}
      />
      <ErrorLine
        message={
          upload.error
            ? upload.error.message === TOO_LARGE
              ? TOO_LARGE
              : errorMessage(upload.error, { fallback: TEXTS.saveFailed })
            : null
        }
      />
    </Stack>
  );
}

/** The templates' parameters: each name as the operator types it (verbatim), then what it stands for. */
function ParameterList() {
  return (
    <Stack gap={2} data-testid="model-parameters">
      <Text size="sm" fw={600}>
        {TEXTS.parametersTitle}
      </Text>
      {Object.entries(DEFINED_MODEL_PARAMETER_LABELS).map(([name, label]) => (
        <Text size="sm" key={name}>
          <Code translate="no" data-verbatim>{`{${name}}`}</Code> — {label}
        </Text>
      ))}
    </Stack>
  );
}
