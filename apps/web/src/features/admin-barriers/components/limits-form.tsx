import { Button, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import {
  LIMIT_FIELDS,
  type LimitField,
  SMS_SHARE_FIELDS,
  type SmsShareField,
  type UpdateLimitsBody,
} from '@propusk/contracts/limits';
import { BARRIER_MESSAGES } from '@propusk/contracts/texts/barriers';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import {
  adminLimitsQueryKey,
  getAdminLimits,
  type Limits,
  updateAdminLimits,
} from '../api/admin-barriers-api';

export const LIMIT_LABELS: Readonly<Record<LimitField, string>> = {
  user_phone_limit: 'Номеров на пользователя',
  user_temp_phone_limit: 'Временных номеров на пользователя',
  global_temp_phone_limit: 'Временных номеров на шлагбаум',
  user_schedule_phone_limit: 'Номеров по расписанию на пользователя',
  global_schedule_phone_limit: 'Номеров по расписанию на шлагбаум',
  schedule_interval_limit: 'Минимальный интервал расписания, минут',
  sms_weekly_limit: 'СМС на устройство в неделю',
};

/** Shares of the weekly SMS limit (issue 29, docs/decisions/0023): empty means the default. */
export const SMS_SHARE_LABELS: Readonly<Record<SmsShareField, string>> = {
  sms_resident_share: 'СМС в неделю на одного жителя',
  sms_owner_reserve: 'Запас СМС для владельца и администраторов',
};

type LimitTexts = Record<LimitField | SmsShareField, string>;
const ALL_FIELDS = [...LIMIT_FIELDS, ...SMS_SHARE_FIELDS] as const;

const toTexts = (limits: Limits): LimitTexts =>
  Object.fromEntries(
    ALL_FIELDS.map((field) => [field, limits[field] === null ? '' : String(limits[field])]),
  ) as LimitTexts;

/** spec.md section 5: whole numbers, minimum 0, empty means null (no limit, or the default share). */
export function toLimitsBody(texts: LimitTexts): UpdateLimitsBody {
  return Object.fromEntries(
    ALL_FIELDS.map((field) => [field, texts[field] === '' ? null : Number(texts[field])]),
  ) as UpdateLimitsBody;
}

/** Only digits can be typed: no sign, no decimal point. */
export const onlyDigits = (value: string) => value.replace(/\D/g, '');

/** The seven limits of a barrier (spec.md section 3, "Barrier limits"). */
export function LimitsForm({ barrierId }: { barrierId: number }) {
  const queryClient = useQueryClient();
  const limits = useQuery({
    queryKey: adminLimitsQueryKey(barrierId),
    queryFn: () => getAdminLimits(barrierId),
  });
  const [texts, setTexts] = useState<LimitTexts | null>(null);

  useEffect(() => {
    if (limits.data) setTexts(toTexts(limits.data));
  }, [limits.data]);

  const save = useMutation({
    mutationFn: (body: UpdateLimitsBody) => updateAdminLimits(barrierId, body),
    onSuccess: (saved) => queryClient.setQueryData(adminLimitsQueryKey(barrierId), saved),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (texts) save.mutate(toLimitsBody(texts));
  }

  if (!texts)
    return (
      <QueryStatus
        isPending={limits.isPending}
        error={
          limits.error ? errorMessage(limits.error, { fallback: BARRIER_MESSAGES.limitsLoadFailed }) : null
        }
      />
    );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {ALL_FIELDS.map((field) => {
            const isShare = (SMS_SHARE_FIELDS as readonly string[]).includes(field);
            return (
              <TextInput
                key={field}
                label={isShare ? SMS_SHARE_LABELS[field as SmsShareField] : LIMIT_LABELS[field as LimitField]}
                placeholder={isShare ? 'По умолчанию' : 'Без ограничений'}
                inputMode="numeric"
                maxLength={9}
                value={texts[field]}
                onChange={(event) => {
                  const value = onlyDigits(event.currentTarget.value);
                  setTexts((current) => (current ? { ...current, [field]: value } : current));
                }}
              />
            );
          })}
        </SimpleGrid>
        {limits.data?.sms_budget ? (
          <Text size="sm">
            {`СМС на этой неделе: запас владельца — осталось ${limits.data.sms_budget.reserve_left} из ${limits.data.sms_budget.reserve}; жителям вместе — осталось ${limits.data.sms_budget.residents_left}; доля одного жителя — ${limits.data.sms_budget.share}.`}
          </Text>
        ) : null}
        <ErrorLine
          message={
            save.error ? errorMessage(save.error, { fallback: BARRIER_MESSAGES.limitsUpdateFailed }) : null
          }
        />
        <SuccessLine message={save.isSuccess ? BARRIER_MESSAGES.limitsUpdated : null} />
        <Button type="submit" loading={save.isPending}>
          Сохранить лимиты
        </Button>
      </Stack>
    </form>
  );
}
