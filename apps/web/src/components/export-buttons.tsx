import { Button, Group, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { DownloadedFile } from '../lib/api-client';
import { errorMessage } from '../lib/errors';
import { ErrorLine } from './status-line';

export type ExportFormat = 'csv' | 'xlsx';

export const EXPORT_FAILED = 'Не удалось скачать файл.';

/** Hands a downloaded file to the browser as a download (a Blob link, clicked once, then released). */
export function saveDownloadedFile({ blob, filename }: DownloadedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** «Скачать CSV» and «Скачать Excel»: `download` fetches the file (through the one fetch wrapper). */
export function ExportButtons({ download }: { download: (format: ExportFormat) => Promise<DownloadedFile> }) {
  const save = useMutation({
    mutationFn: async (format: ExportFormat) => saveDownloadedFile(await download(format)),
  });
  const busy = save.isPending ? save.variables : null;
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Button size="xs" variant="light" loading={busy === 'csv'} onClick={() => save.mutate('csv')}>
          Скачать CSV
        </Button>
        <Button size="xs" variant="light" loading={busy === 'xlsx'} onClick={() => save.mutate('xlsx')}>
          Скачать Excel
        </Button>
      </Group>
      <ErrorLine message={save.error ? errorMessage(save.error, { fallback: EXPORT_FAILED }) : null} />
    </Stack>
  );
}
