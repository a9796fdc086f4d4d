import { Button, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { COMMON_MESSAGES } from '@propusk/contracts/texts/common';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FileField } from '../../../components/file-field';
import { AppLayout } from '../../../components/layout/app-layout';
import { MissingBarrier } from '../../../components/missing-barrier';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import {
  commitImport,
  downloadTemplate,
  type ImportPreview,
  previewImport,
  type TemplateFormat,
} from '../../../features/imports/api/imports-api';
import { ImportRows } from '../../../features/imports/components/import-rows';
import { IMPORT_TEXTS, minutesText } from '../../../features/imports/import-texts';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { errorMessage } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { adminNavigation } from './navigation';

const TEMPLATE_NAMES: Record<TemplateFormat, string> = {
  xlsx: 'шаблон-жителей.xlsx',
  csv: 'шаблон-жителей.csv',
};

/** What the import will cost, before it is confirmed. */
function Totals({ totals }: { totals: ImportPreview['totals'] }) {
  return (
    <Card withBorder radius="md" data-testid="import-totals">
      <Stack gap={4}>
        <Title order={2} size="h4">
          Итог проверки
        </Title>
        <Text size="sm">Строк в файле: {totals.rows}</Text>
        <Text size="sm" c={totals.rows_with_problems > 0 ? 'red.9' : undefined}>
          Строк с ошибками: {totals.rows_with_problems}
        </Text>
        <Text size="sm">Жителей: {totals.residents}</Text>
        <Text size="sm">Номеров к загрузке: {totals.phones}</Text>
        <Text size="sm" data-testid="import-sms">
          {IMPORT_TEXTS.smsAtMost(totals.sms)}
        </Text>
        <Text size="sm" data-testid="import-minutes">
          Отправка займёт {minutesText(totals.send_minutes)}
        </Text>
      </Stack>
    </Card>
  );
}

/**
 * /import-admin: residents and their numbers from a file into one of the administrator's barriers (state
 * carries barrier_id): the templates, the file, its check (every row's problems), then the import itself
 * after a confirmation with the SMS it will cost.
 */
export function ImportAdminRoute() {
  const barrierId = useNavigationState().barrier_id ?? null;
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [isConfirming, setIsConfirming] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);

  const preview = useMutation({
    mutationFn: (chosen: File) => previewImport(barrierId ?? 0, chosen),
    // The next step succeeded: a failed template download of before is no longer what matters.
    onSuccess: () => setDownloadError(null),
  });
  const commit = useMutation({
    mutationFn: ({ chosen, digest }: { chosen: File; digest: string }) =>
      commitImport(barrierId ?? 0, chosen, digest),
    onSuccess: async () => {
      setIsConfirming(false);
      await queryClient.invalidateQueries();
    },
  });

  async function download(format: TemplateFormat) {
    setDownloadError(null);
    try {
      const blob = await downloadTemplate(barrierId ?? 0, format);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = TEMPLATE_NAMES[format];
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      setDownloadError(errorMessage(error, { fallback: 'Не удалось скачать шаблон.' }));
    }
  }

  function choose(chosen: File | null) {
    setFile(chosen);
    preview.reset();
    commit.reset();
  }

  const result = preview.data;
  const canImport = Boolean(
    file && result && result.totals.rows_with_problems === 0 && result.totals.phones > 0 && !commit.data,
  );

  return (
    <AppLayout
      title="Импорт жителей"
      back={{ to: paths.adminBarrierPage, label: 'Назад', state: { barrier_id: barrierId } }}
      navigation={adminNavigation}
    >
      {barrierId === null ? (
        <MissingBarrier listPath={paths.adminBarriers} />
      ) : (
        <>
          <Card withBorder radius="md">
            <Stack gap="sm">
              <Text size="sm">{IMPORT_TEXTS.intro}</Text>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
                <Button variant="light" onClick={() => download('xlsx')}>
                  Шаблон для Эксель
                </Button>
                <Button variant="light" onClick={() => download('csv')}>
                  Шаблон текстом с разделителями
                </Button>
              </SimpleGrid>
              <ErrorLine message={downloadError} />
            </Stack>
          </Card>
          <Card withBorder radius="md">
            <Stack gap="sm">
              <FileField
                label="Файл с жителями"
                placeholder="Выберите файл"
                accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                value={file}
                onChange={choose}
              />
              <Button
                onClick={() => file && preview.mutate(file)}
                disabled={!file}
                loading={preview.isPending}
              >
                Проверить файл
              </Button>
              <ErrorLine
                message={
                  preview.error ? errorMessage(preview.error, { fallback: COMMON_MESSAGES.loadFailed }) : null
                }
              />
            </Stack>
          </Card>
          {result ? (
            <>
              <Totals totals={result.totals} />
              {result.totals.rows_with_problems > 0 ? (
                <ErrorLine message="Исправьте строки с ошибками в файле и проверьте его снова: загрузка идёт целиком или не идёт совсем." />
              ) : null}
              {commit.data ? (
                <SuccessLine message={IMPORT_TEXTS.done(commit.data)} />
              ) : (
                <Button onClick={() => setIsConfirming(true)} disabled={!canImport}>
                  Импортировать
                </Button>
              )}
              <ImportRows rows={result.rows} />
              <ConfirmDialog
                opened={isConfirming}
                message={IMPORT_TEXTS.confirm(result.totals)}
                confirmLabel="Да, импортировать"
                onConfirm={() => file && commit.mutate({ chosen: file, digest: result.digest })}
                onCancel={() => setIsConfirming(false)}
                isBusy={commit.isPending}
                error={commit.error ? errorMessage(commit.error, { fallback: 'Импорт не выполнен.' }) : null}
              />
            </>
          ) : null}
        </>
      )}
    </AppLayout>
  );
}

export default ImportAdminRoute;
