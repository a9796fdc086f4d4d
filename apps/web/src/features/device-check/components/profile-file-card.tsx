import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { DEVICE_PROFILE_MAX_BYTES } from '@propusk/contracts/device-profile-file';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { saveDownloadedFile } from '../../../components/export-buttons';
import { FileField } from '../../../components/file-field';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import { deviceProfileQueryKey, exportDeviceProfile, importDeviceProfile } from '../api/device-check-api';

export const PROFILE_FILE_TEXTS = {
  title: 'Профиль файлом',
  hint: 'Скачайте профиль устройства этого шлагбаума — формы команд и ответов, выученные тексты устройства и проверки по модели, — чтобы перенести его на другой шлагбаум или поделиться им. Пароля устройства в файле нет.',
  download: 'Скачать профиль',
  upload: 'Загрузить профиль',
  fileLabel: 'Файл профиля',
  filePlaceholder: 'Выберите файл профиля',
  downloadFailed: 'Не удалось скачать профиль.',
  uploadFailed: 'Не удалось загрузить профиль.',
  tooLarge: `Файл профиля слишком большой: не больше ${DEVICE_PROFILE_MAX_BYTES / 1024} КБ.`,
  loaded: (verified: number) =>
    verified > 0
      ? `Профиль загружен. Проверок по модели в файле: ${verified}.`
      : 'Профиль загружен. В файле нет проверок по модели: проверьте устройство по модели на этом шлагбауме.',
} as const;

/** «Скачать профиль» / «Загрузить профиль»: the barrier's device profile as a shareable file. */
export function ProfileFileCard({ barrierId }: { barrierId: number }) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const download = useMutation({
    mutationFn: async () => {
      const { text, filename } = await exportDeviceProfile(barrierId);
      saveDownloadedFile({ blob: new Blob([text], { type: 'application/json' }), filename });
    },
  });
  const upload = useMutation({
    mutationFn: async (chosen: File) => {
      if (chosen.size > DEVICE_PROFILE_MAX_BYTES) throw new Error(PROFILE_FILE_TEXTS.tooLarge);
      return importDeviceProfile(barrierId, await chosen.text());
    },
    onSuccess: () => {
      setFile(null);
      void queryClient.invalidateQueries({ queryKey: deviceProfileQueryKey(barrierId) });
    },
  });
  const uploadError = upload.error
    ? upload.error.message === PROFILE_FILE_TEXTS.tooLarge
      ? PROFILE_FILE_TEXTS.tooLarge
      : errorMessage(upload.error, { fallback: PROFILE_FILE_TEXTS.uploadFailed })
    : null;
  return (
    <Card withBorder radius="md" data-testid="profile-file">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {PROFILE_FILE_TEXTS.title}
        </Title>
        <Text size="sm">{PROFILE_FILE_TEXTS.hint}</Text>
        <Group>
          <Button variant="default" loading={download.isPending} onClick={() => download.mutate()}>
            {PROFILE_FILE_TEXTS.download}
          </Button>
        </Group>
        <ErrorLine
          message={
            download.error
              ? errorMessage(download.error, { fallback: PROFILE_FILE_TEXTS.downloadFailed })
              : null
          }
        />
        <FileField
          label={PROFILE_FILE_TEXTS.fileLabel}
          placeholder={PROFILE_FILE_TEXTS.filePlaceholder}
          accept=".json,application/json"
          value={file}
          onChange={(chosen) => {
            setFile(chosen);
            upload.reset();
          }}
        />
        <Button disabled={!file} loading={upload.isPending} onClick={() => file && upload.mutate(file)}>
          {PROFILE_FILE_TEXTS.upload}
        </Button>
        {upload.data ? <SuccessLine message={PROFILE_FILE_TEXTS.loaded(upload.data.verified)} /> : null}
        <ErrorLine message={uploadError} />
      </Stack>
    </Card>
  );
}
