import { Button, Card, Group, Stack, Text } from '@mantine/core';
import type { MyDataFormat } from '@propusk/contracts/privacy';
import { MY_DATA_TEXTS } from '@propusk/contracts/privacy-texts';
import { useMutation } from '@tanstack/react-query';
import { saveDownloadedFile } from '../../../components/export-buttons';
import { ErrorLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import { downloadMyData } from '../api/privacy-api';

/** «Мои данные» on the profile: everything the server keeps about the person, as a JSON or CSV file. */
export function MyDataCard() {
  const save = useMutation({
    mutationFn: async (format: MyDataFormat) => saveDownloadedFile(await downloadMyData(format)),
  });
  const busy = save.isPending ? save.variables : null;
  return (
    <Card withBorder radius="md">
      <Stack gap="sm">
        <Text fw={600}>{MY_DATA_TEXTS.title}</Text>
        <Text size="sm">{MY_DATA_TEXTS.description}</Text>
        <Group gap="xs" grow>
          <Button variant="light" loading={busy === 'json'} onClick={() => save.mutate('json')}>
            {MY_DATA_TEXTS.json}
          </Button>
          <Button variant="light" loading={busy === 'csv'} onClick={() => save.mutate('csv')}>
            {MY_DATA_TEXTS.csv}
          </Button>
        </Group>
        <ErrorLine
          message={save.error ? errorMessage(save.error, { fallback: MY_DATA_TEXTS.failed }) : null}
        />
      </Stack>
    </Card>
  );
}
