import { Button, Card, Code, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { DEVICE_CHECK_TEXTS as TEXTS } from '@propusk/contracts/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
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

/** A reply form and its placeholders are written in the device's language: shown as code, never translated. */
function DeviceText({ children }: { children: string }) {
  return <Code translate="no">{children}</Code>;
}

function RepliesHint({ forms }: { forms: string[] }) {
  return (
    <>
      {TEXTS.repliesHint} <DeviceText>{'{slot}'}</DeviceText>, <DeviceText>{'{number}'}</DeviceText>.
      {forms.length > 0 ? ` ${TEXTS.documentedReplies}: ` : null}
      {forms.map((form, index) => (
        <span key={form}>
          {index > 0 ? ', ' : null}
          <DeviceText>{form}</DeviceText>
        </span>
      ))}
    </>
  );
}

function ProfileFields({ barrierId, data }: { barrierId: number; data: DeviceProfileResponse }) {
  const queryClient = useQueryClient();
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
        ...(Object.keys(chosen).length > 0 ? { replies: chosen } : {}),
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
