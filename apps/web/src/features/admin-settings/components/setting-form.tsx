import { Button, Card, Code, Stack, Text, TextInput } from '@mantine/core';
import { MESSAGES } from '@propusk/contracts/messages';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import { type Setting, sendBarrierSetting } from '../api/settings-api';
import { fillTemplate } from '../template';

/** One setting: its name, description, a text input per parameter, the command preview and 'Отправить'. */
export function SettingForm({
  barrierId,
  settingId,
  setting,
}: {
  barrierId: number;
  settingId: string;
  setting: Setting;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const send = useMutation({
    mutationFn: () =>
      sendBarrierSetting(barrierId, {
        setting: settingId,
        params: Object.fromEntries(setting.params.map((param) => [param.key, values[param.key] ?? ''])),
      }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    send.mutate();
  }

  return (
    <Card withBorder radius="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text fw={600}>{setting.name}</Text>
          <Text size="sm">{setting.description}</Text>
          {setting.params.map((param) => (
            <TextInput
              key={param.key}
              label={param.name}
              placeholder={param.description}
              value={values[param.key] ?? ''}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setValues((current) => ({ ...current, [param.key]: value }));
                send.reset();
              }}
              autoComplete="off"
            />
          ))}
          <Text size="sm">
            {/* The SMS as the device will read it: its own command language, never translated. */}
            Команда:{' '}
            <Code data-testid="command-preview" translate="no">
              {fillTemplate(setting.template, values)}
            </Code>
          </Text>
          <ErrorLine
            message={
              send.error
                ? errorMessage(send.error, {
                    fallback: MESSAGES.settingSendFailed,
                    network: MESSAGES.settingSendNetwork,
                  })
                : null
            }
          />
          <SuccessLine message={send.isSuccess ? MESSAGES.settingSent(setting.name) : null} />
          <Button type="submit" loading={send.isPending}>
            Отправить
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
