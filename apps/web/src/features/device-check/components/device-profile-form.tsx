import { Button, Card, List, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { DEVICE_CHECK_TEXTS as TEXTS } from '@propusk/contracts/texts/device-check';
import { getSheet, isDeviceModel, unverifiedForms } from '@propusk/devices/models';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DeviceText } from '../../../components/device-text';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import {
  type DeviceProfileResponse,
  deviceProfileQueryKey,
  getDeviceProfile,
  saveDeviceProfile,
} from '../api/device-check-api';

const EDITABLE_KINDS = ['add', 'delete'] as const;

const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/**
 * The reply forms the manual documents, each under «Ответ устройства по руководству»: a form is written in
 * the device's language (its placeholders stand for the slot and the number) and shown as such, labelled.
 */
function RepliesHint({ forms }: { forms: string[] }) {
  return (
    <Stack gap={2} component="span">
      <span>{TEXTS.repliesHint}</span>
      {forms.map((form) => (
        <DeviceText key={form} side="reply" label={TEXTS.documentedReplies}>
          {form}
        </DeviceText>
      ))}
    </Stack>
  );
}

const CLOCK_ORDER_LABELS: Record<string, string> = {
  yyMMddHHmm: 'ГГММДДЧЧММ и # в конце (по умолчанию)',
  ddMMyyHHmm: 'ДДММГГЧЧММ без # в конце',
};

/**
 * The model's forms that no source shows for it, marked «не проверено на устройстве»: what each does, in
 * Russian, and its text under «Текст СМС» (a command) or «Ответ устройства» (what the unit sends).
 */
function UnverifiedForms({ model }: { model: string }) {
  const forms = isDeviceModel(model) ? unverifiedForms(model) : [];
  if (forms.length === 0) return null;
  return (
    // The default text colour: Mantine's darkest orange on white is 4.29:1, under WCAG AA's 4.5:1 (axe in the journeys).
    <Stack gap={4} data-testid="unverified-forms">
      <Text size="sm" fw={700}>
        {TEXTS.unverifiedTitle}
      </Text>
      <List size="sm" spacing={4}>
        {forms.map((form) => (
          <List.Item key={form.key} data-testid="unverified-form">
            {form.what}. <DeviceText side={form.side}>{form.template}</DeviceText>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

function ProfileFields({ barrierId, data }: { barrierId: number; data: DeviceProfileResponse }) {
  const queryClient = useQueryClient();
  const clockForms = isDeviceModel(data.model) ? getSheet(data.model).clockForms : [];
  const defaultClock = clockForms[0]?.order ?? '';
  const [clockOrder, setClockOrder] = useState<string>(data.profile?.clock_order ?? defaultClock);
  const [numberFormat, setNumberFormat] = useState(
    data.profile?.number_format ?? data.documented.number_format,
  );
  const [replies, setReplies] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      EDITABLE_KINDS.map((kind) => [kind, (data.profile?.replies?.[kind] ?? []).join('\n')]),
    ),
  );
  const save = useMutation({
    mutationFn: () => {
      const chosen: Record<string, string[]> = {};
      for (const kind of EDITABLE_KINDS) {
        const forms = linesOf(replies[kind] ?? '');
        if (forms.length > 0) chosen[kind] = forms;
      }
      return saveDeviceProfile(barrierId, {
        ...(numberFormat !== data.documented.number_format ? { number_format: numberFormat } : {}),
        ...(clockOrder !== defaultClock ? { clock_order: clockOrder } : {}),
        ...(Object.keys(chosen).length > 0 ? { replies: chosen } : {}),
        // The unit's power texts a conformance run learnt are not edited here: kept as they are.
        ...(data.profile?.alarms ? { alarms: data.profile.alarms } : {}),
      });
    },
    onSuccess: (saved) => queryClient.setQueryData(deviceProfileQueryKey(barrierId), saved),
  });
  return (
    <Stack gap="sm">
      <Select
        label={TEXTS.numberFormat}
        description={TEXTS.documentedFormat(data.documented.number_format)}
        data={data.number_formats}
        value={numberFormat}
        onChange={(value) => setNumberFormat(value ?? data.documented.number_format)}
        allowDeselect={false}
      />
      {clockForms.length > 1 ? (
        <Select
          label="Порядок цифр в команде часов"
          description="Если устройство после установки часов открывает по расписанию не в то время, выберите другой порядок."
          data={clockForms.map((form) => ({
            value: form.order,
            label: CLOCK_ORDER_LABELS[form.order] ?? form.order,
          }))}
          value={clockOrder}
          onChange={(value) => setClockOrder(value ?? defaultClock)}
          allowDeselect={false}
        />
      ) : null}
      <UnverifiedForms model={data.model} />
      {EDITABLE_KINDS.map((kind) => (
        <Textarea
          key={kind}
          label={TEXTS.repliesLabel(TEXTS.replyKinds[kind] ?? kind)}
          description={
            <RepliesHint forms={(data.documented.replies[kind] ?? []).map((form) => form.template)} />
          }
          autosize
          minRows={1}
          value={replies[kind] ?? ''}
          onChange={(event) => {
            const value = event.currentTarget.value;
            setReplies((current) => ({ ...current, [kind]: value }));
          }}
        />
      ))}
      <Button loading={save.isPending} onClick={() => save.mutate()}>
        {TEXTS.saveProfile}
      </Button>
      {save.isSuccess ? <SuccessLine message={TEXTS.profileSaved} /> : null}
      <ErrorLine message={save.error ? errorMessage(save.error, { fallback: TEXTS.profileFailed }) : null} />
    </Stack>
  );
}

/**
 * The barrier's device profile: the number form written in commands and extra reply forms of a unit that
 * answers differently from its manual. The server validates and records it.
 */
export function DeviceProfileForm({ barrierId }: { barrierId: number }) {
  const profile = useQuery({
    queryKey: deviceProfileQueryKey(barrierId),
    queryFn: () => getDeviceProfile(barrierId),
  });
  return (
    <Card withBorder radius="md" data-testid="device-profile">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {TEXTS.profileTitle}
        </Title>
        <Text size="sm">{TEXTS.profileHint}</Text>
        <QueryStatus isPending={profile.isPending} error={profile.error ? TEXTS.profileLoadFailed : null} />
        {profile.data ? <ProfileFields barrierId={barrierId} data={profile.data} /> : null}
      </Stack>
    </Card>
  );
}
