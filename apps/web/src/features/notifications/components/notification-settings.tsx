import { Button, Card, Group, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import {
  EVENT_KIND_LABELS,
  type EventKind,
  type NotificationPreferences,
  POWER_SMS_TEXTS,
} from '@propusk/contracts/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useOnline } from '../../../hooks/use-online';
import { preferencesQueryKey, preferencesQueryOptions, updatePreferences } from '../api/notifications-api';
import { currentPushState, disablePush, enablePush, type PushState } from '../api/push-subscription';

const STATE_TEXTS: Record<PushState, string> = {
  unsupported: 'Этот браузер не показывает уведомления. На телефоне откройте Пропуск с главного экрана.',
  denied: 'Уведомления запрещены в настройках браузера для этого сайта.',
  off: 'На этом устройстве уведомления выключены.',
  on: 'На этом устройстве уведомления включены.',
};

const toTime = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const fromTime = (value: string): number | null => {
  const match = /^(\d{2}):(\d{2})$/.exec(value);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
};
const browserTimeZone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
};

/**
 * «Уведомления» in the profile (issue 43): this device on or off, a switch per event, an administrator's
 * «СМС при отключении питания» (off by default), quiet hours (the urgent events come through them). Changes need the network, like every change in the app.
 */
export function NotificationSettings() {
  const online = useOnline();
  const queryClient = useQueryClient();
  const preferences = useQuery(preferencesQueryOptions);
  const [device, setDevice] = useState<PushState | null>(null);
  const [deviceError, setDeviceError] = useState<string | null>(null);
  useEffect(() => {
    void currentPushState().then(setDevice);
  }, []);
  const save = useMutation({
    mutationFn: updatePreferences,
    onSuccess: (saved: NotificationPreferences) => queryClient.setQueryData(preferencesQueryKey, saved),
  });
  const toggleDevice = useMutation({
    mutationFn: () => (device === 'on' ? disablePush() : enablePush()),
    onSuccess: (state) => {
      setDeviceError(null);
      setDevice(state);
      void queryClient.invalidateQueries({ queryKey: preferencesQueryKey });
    },
    onError: () => setDeviceError('Не удалось изменить подписку на уведомления. Попробуйте ещё раз.'),
  });
  const data = preferences.data;
  const quiet = data?.quiet_hours ?? null;
  const saveQuiet = (from: number | null, to: number | null) => {
    if (from === null || to === null || from === to) return;
    save.mutate({ quiet_hours: { from, to }, time_zone: browserTimeZone() });
  };

  return (
    <Card withBorder padding="md" data-testid="notification-settings">
      <Stack gap="sm">
        <Title order={3} size="h4">
          Уведомления
        </Title>
        {device && <Text size="sm">{STATE_TEXTS[device]}</Text>}
        {device && device !== 'unsupported' && device !== 'denied' && (
          <Button
            variant={device === 'on' ? 'default' : 'filled'}
            disabled={!online}
            loading={toggleDevice.isPending}
            onClick={() => toggleDevice.mutate()}
          >
            {device === 'on' ? 'Выключить на этом устройстве' : 'Включить уведомления на этом устройстве'}
          </Button>
        )}
        {deviceError && (
          <Text size="sm" c="red.9" role="alert">
            {deviceError}
          </Text>
        )}
        {data && data.devices > 0 && <Text size="sm">Устройств с уведомлениями: {data.devices}</Text>}
        {data?.events.map((event) => (
          <Switch
            key={event.kind}
            label={EVENT_KIND_LABELS[event.kind as EventKind]}
            description={event.urgent ? 'Приходит и в тихие часы' : undefined}
            checked={event.enabled}
            disabled={!online || save.isPending}
            onChange={(changed) =>
              save.mutate({ events: [{ kind: event.kind, enabled: changed.currentTarget.checked }] })
            }
          />
        ))}
        {typeof data?.power_sms === 'boolean' && (
          <Switch
            label={POWER_SMS_TEXTS.label}
            description={POWER_SMS_TEXTS.description}
            checked={data.power_sms}
            disabled={!online || save.isPending}
            onChange={(changed) => save.mutate({ power_sms: changed.currentTarget.checked })}
          />
        )}
        {data && (
          <>
            <Switch
              label="Тихие часы"
              description="Неважные уведомления придут после их окончания"
              checked={quiet !== null}
              disabled={!online || save.isPending}
              onChange={(changed) =>
                changed.currentTarget.checked
                  ? saveQuiet(22 * 60, 7 * 60)
                  : save.mutate({ quiet_hours: null })
              }
            />
            {quiet && (
              <Group grow>
                <TextInput
                  type="time"
                  label="С"
                  defaultValue={toTime(quiet.from)}
                  disabled={!online}
                  onBlur={(blurred) => saveQuiet(fromTime(blurred.currentTarget.value), quiet.to)}
                />
                <TextInput
                  type="time"
                  label="До"
                  defaultValue={toTime(quiet.to)}
                  disabled={!online}
                  onBlur={(blurred) => saveQuiet(quiet.from, fromTime(blurred.currentTarget.value))}
                />
              </Group>
            )}
          </>
        )}
        {save.isError && (
          <Text size="sm" c="red.9" role="alert">
            Не удалось сохранить. Попробуйте ещё раз.
          </Text>
        )}
      </Stack>
    </Card>
  );
}
