import { Button, Card, Select, Stack, Text, TextInput } from '@mantine/core';
import { DANGER_TEXTS } from '@propusk/contracts/texts/dangers';
import { OFFLINE_ACTION_TEXTS, OFFLINE_TEXTS } from '@propusk/contracts/texts/offline';
import { SETTING_FAILURE_LABELS, SETTING_MESSAGES } from '@propusk/contracts/texts/settings';
import { type DeviceModel, getSheet } from '@propusk/devices/models';
import { previewSetting } from '@propusk/devices/settings';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DeviceText } from '../../../components/device-text';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { useFormDraft } from '../../../hooks/use-form-draft';
import { useOnline } from '../../../hooks/use-online';
import { errorMessage } from '../../../lib/errors';
import {
  getSettingCommand,
  type Setting,
  type SettingCommand,
  sendBarrierSetting,
  settingCommandQueryKey,
} from '../api/settings-api';

/** A field not filled yet: the preview still holds its placeholder (`{seconds}`). */
const PLACEHOLDER = /\{[a-z_]+\}/;

/** How often a sent setting is asked about while the device has not answered (as the device check does). */
const SENT_REFRESH_MS = 1000;

/**
 * What the screen says about a sent setting, from the server's answer: the spec's 'Настройка «…» успешно
 * отправлена.' once the server took it (kept, issue 41 item 1), and under it the device's side — still waited
 * for (issue 12: sending only queues the SMS) or confirmed; a failure is an error instead.
 */
function commandStatusLines(name: string, command: SettingCommand | undefined) {
  if (command?.state === 'failed') {
    const reason =
      SETTING_FAILURE_LABELS[command.failure ?? 'no_reply'] ?? SETTING_FAILURE_LABELS.no_reply ?? '';
    return { sent: null, device: null, error: SETTING_MESSAGES.settingFailed(name, reason) };
  }
  const device =
    command?.state === 'confirmed'
      ? SETTING_MESSAGES.settingConfirmed(name)
      : SETTING_MESSAGES.settingAwaitingDevice;
  return { sent: SETTING_MESSAGES.settingSent(name), device, error: null };
}

/**
 * One setting: its name, description, a text input per parameter (a Russian choice where the device takes a
 * few fixed words, ON/OFF), the SMS text (labelled 'Команда:' as spec.md writes it, shown once every field is filled: no
 * placeholder reaches the screen) and 'Отправить'.
 * The preview is `previewSetting` of @propusk/devices, the code the server renders the SMS with, so it shows
 * the values as the device will get them (`30` → `030`) and the password masked as the device log shows it.
 * After sending, the status follows the command: sent, then confirmed by the device or failed.
 * A setting the server would refuse now (`unavailableReason`, e.g. a relay setting of a barrier whose command
 * dialect is not known) is shown with its inputs and 'Отправить' disabled, and the reason under the button.
 */
export function SettingForm({
  barrierId,
  model,
  settingId,
  setting,
  unavailableReason = null,
}: {
  barrierId: number;
  model: DeviceModel;
  settingId: string;
  setting: Setting;
  unavailableReason?: string | null;
}) {
  const isUnavailable = unavailableReason !== null;
  const [values, setValues] = useState<Record<string, string>>({});
  // Kept if the session ends (issue 41): a new device password never is (form-drafts.ts).
  useFormDraft(`setting:${settingId}`, values, (saved) =>
    setValues((current) => ({
      ...current,
      ...Object.fromEntries(
        Object.entries(saved).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      ),
    })),
  );
  const isOnline = useOnline();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const send = useMutation({
    networkMode: 'always',
    onSettled: () => setConfirming(false),
    // The barrier's page and list show widened access from the moment it is sent (their key: ['admin', 'barriers']).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'barriers'] }),
    mutationFn: () =>
      sendBarrierSetting(barrierId, {
        setting: settingId,
        params: Object.fromEntries(setting.params.map((param) => [param.key, values[param.key] ?? ''])),
      }),
  });
  const commandId = send.data?.command_id ?? null;
  const command = useQuery({
    staleTime: 0,
    queryKey: settingCommandQueryKey(barrierId, commandId ?? 0),
    queryFn: () => getSettingCommand(barrierId, commandId ?? 0),
    enabled: commandId !== null,
    refetchInterval: (query) =>
      query.state.data?.state === 'confirmed' || query.state.data?.state === 'failed'
        ? false
        : SENT_REFRESH_MS,
  });
  const preview = previewSetting(model, settingId, values);
  const status = send.isSuccess ? commandStatusLines(setting.name, command.data) : null;

  const widening = wideningQuestion(settingId, values);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (isUnavailable || !navigator.onLine) return;
    // A setting that widens access asks once, naming what it does (issue 32 item 3).
    if (widening) setConfirming(true);
    else send.mutate();
  }

  return (
    <Card withBorder radius="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text fw={600}>{setting.name}</Text>
          <Text size="sm">{setting.description}</Text>
          {getSheet(model).settings[settingId]?.unverified ? (
            <Text size="sm" c="orange.9" data-testid="setting-unverified">
              Не проверено на устройстве: форма команды взята из документации похожего устройства.
            </Text>
          ) : null}
          {setting.params.map((param) => {
            const choices = paramChoices(model, settingId, param.key);
            const change = (value: string) => {
              setValues((current) => ({ ...current, [param.key]: value }));
              send.reset();
            };
            // A param with fixed values (the device's ON/OFF) is a Russian choice; the SMS keeps the device's word.
            return choices ? (
              <Select
                key={param.key}
                label={param.name}
                placeholder={param.description}
                data={choices.map(({ value, label }) => ({ value, label }))}
                value={values[param.key] ?? null}
                onChange={(value) => change(value ?? '')}
                allowDeselect={false}
                disabled={isUnavailable}
              />
            ) : (
              <TextInput
                key={param.key}
                label={param.name}
                placeholder={param.description}
                value={values[param.key] ?? ''}
                onChange={(event) => change(event.currentTarget.value)}
                autoComplete="off"
                disabled={isUnavailable}
              />
            );
          })}
          {/*
            The SMS as the device will read it, under the spec's label 'Команда:'; until every field is filled, a
            Russian line under the same label.
          */}
          {PLACEHOLDER.test(preview.text) ? (
            <Text size="sm" data-testid="command-preview-pending">
              {SETTING_MESSAGES.commandLabel} {SETTING_MESSAGES.commandPending}
            </Text>
          ) : (
            <Text size="sm">
              <DeviceText side="sms" testId="command-preview" label={SETTING_MESSAGES.commandLabel}>
                {preview.text}
              </DeviceText>
            </Text>
          )}
          <ErrorLine
            message={
              send.error
                ? errorMessage(send.error, {
                    fallback: SETTING_MESSAGES.settingSendFailed,
                    network: SETTING_MESSAGES.settingSendNetwork,
                  })
                : status?.error
            }
          />
          <SuccessLine message={status?.sent} />
          {status?.device ? (
            <Text size="sm" role="status" data-testid="setting-device-answer">
              {status.device}
            </Text>
          ) : null}
          <Button
            type="submit"
            loading={send.isPending}
            disabled={isUnavailable || !isOnline}
            aria-describedby={isUnavailable ? 'setting-unavailable-reason' : undefined}
          >
            {isOnline ? 'Отправить' : OFFLINE_TEXTS.noNetwork}
          </Button>
          {isOnline ? null : (
            <Text size="sm" c="red.9" role="status">
              {OFFLINE_ACTION_TEXTS.sendOffline}
            </Text>
          )}
          <ConfirmDialog
            opened={confirming && widening !== null}
            message={widening?.message ?? ''}
            confirmLabel={widening?.yes ?? ''}
            onConfirm={() => navigator.onLine && send.mutate()}
            onCancel={() => setConfirming(false)}
            isBusy={send.isPending}
          />
          {isUnavailable ? (
            <Text
              size="sm"
              c="dimmed"
              id="setting-unavailable-reason"
              data-testid="setting-unavailable-reason"
            >
              {unavailableReason}
            </Text>
          ) : null}
        </Stack>
      </form>
    </Card>
  );
}

/** The fixed values of a setting's param, from the model's sheet (the code the server checks them with). */
function paramChoices(model: DeviceModel, settingId: string, key: string) {
  const settings = getSheet(model).settings;
  const sheet = Object.hasOwn(settings, settingId) ? settings[settingId] : undefined;
  return sheet?.params.find((param) => param.key === key)?.choices ?? null;
}

/** The question before a setting that widens access: open to every caller, or a relay left on (time 999). */
export function wideningQuestion(
  settingId: string,
  values: Record<string, string>,
): { message: string; yes: string } | null {
  if (settingId === 'access_all')
    return { message: DANGER_TEXTS.confirmOpenToAll, yes: DANGER_TEXTS.confirmOpenToAllYes };
  if (settingId === 'relay_time' && /^\s*0*999\s*$/.test(values.seconds ?? ''))
    return { message: DANGER_TEXTS.confirmRelayAlwaysOn, yes: DANGER_TEXTS.confirmRelayAlwaysOnYes };
  return null;
}
