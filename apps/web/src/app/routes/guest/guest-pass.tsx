import { Button, Card, Stack, Text } from '@mantine/core';
import { AUTH_VALIDATION } from '@propusk/contracts/texts/auth';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import { CodeInput, isSixDigitCode } from '../../../components/code-input';
import { AppLayout } from '../../../components/layout/app-layout';
import { PhoneInput } from '../../../components/phone-input';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { UserText } from '../../../components/user-text';
import {
  getPublicGuestPass,
  type PublicGuestPass,
  publicGuestPassQueryKey,
  redeemGuestPass,
  rememberGuestPassHolder,
  requestGuestPassCode,
} from '../../../features/guest-passes/api/guest-passes-api';
import { useSubmission } from '../../../hooks/use-submission';
import { formatDateTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/errors';
import { formatPhone, isCompletePhone, phoneHref } from '../../../lib/phone';

const UNAVAILABLE =
  'Ссылка пропуска недействительна: пропуск уже использован, отозван или его время истекло.';

/** The guest's texts once his number is on the gate (issue 32 item 4). */
const HELD_TEXTS = {
  call: 'Позвонить на шлагбаум',
  callHint: 'Шлагбаум откроется на звонок с вашего номера, пока действует пропуск.',
  usedElsewhere:
    'Пропуск уже подтверждён. Номер шлагбаума показан на телефоне, где пропуск подтверждали: звоните на шлагбаум с подтверждённого номера.',
} as const;

/**
 * /guest/:token (issue 14 part 5): a guest pass's link, without a login and without the bottom navigation.
 * The guest sees the address and the window, enters his number, confirms it by the SMS code, and the number
 * is written to the barrier for that window.
 */
export function GuestPassRoute() {
  const { token = '' } = useParams();
  const pass = useQuery({
    queryKey: publicGuestPassQueryKey(token),
    queryFn: () => getPublicGuestPass(token),
    retry: false,
  });
  return (
    <AppLayout title="Гостевой пропуск">
      <QueryStatus
        isPending={pass.isPending}
        error={
          pass.error
            ? errorMessage(pass.error, { fallback: UNAVAILABLE, byStatus: { 410: UNAVAILABLE } })
            : null
        }
      />
      {pass.data ? <GuestPassForm token={token} pass={pass.data} /> : null}
    </AppLayout>
  );
}

function GuestPassForm({ token, pass }: { token: string; pass: PublicGuestPass }) {
  const [phone, setPhone] = useState('+7');
  const [isIncompleteShown, setIsIncompleteShown] = useState(false);
  const [verificationToken, setVerificationToken] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [done, setDone] = useState<{ phone: string; devicePhone: string | null } | null>(null);
  const { error, isBusy, run } = useSubmission();
  const period = `${formatDateTime(pass.start)} — ${formatDateTime(pass.end)}`;

  async function sendCode(event?: FormEvent) {
    event?.preventDefault();
    if (!isCompletePhone(phone)) {
      setIsIncompleteShown(true);
      return;
    }
    await run(async () => {
      try {
        const sent = await requestGuestPassCode(token, phone);
        setVerificationToken(sent.verification_token);
        setCode('');
      } catch (caught) {
        return errorMessage(caught, { fallback: 'Не удалось отправить код.', fields: ['phone', 'detail'] });
      }
    });
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (!verificationToken || !isSixDigitCode(code)) return;
    await run(async () => {
      try {
        const used = await redeemGuestPass(token, { phone, code, verification_token: verificationToken });
        rememberGuestPassHolder(token, used.holder_key);
        setDone({ phone, devicePhone: used.device_phone });
      } catch (caught) {
        return errorMessage(caught, {
          fallback: 'Не удалось подтвердить номер.',
          fields: ['code', 'detail'],
        });
      }
    });
  }

  return (
    <Stack gap="md">
      <Card withBorder radius="md">
        <Stack gap={4}>
          <Text fw={700} size="lg" data-testid="guest-pass-address">
            <UserText>{pass.address}</UserText>
          </Text>
          <Text size="sm" data-testid="guest-pass-window">
            Действует: {period}
          </Text>
        </Stack>
      </Card>
      {done ? (
        <>
          <SuccessLine
            message={`Готово. Номер ${formatPhone(done.phone)} добавлен на шлагбаум. Звоните на шлагбаум с этого номера: ${period}.`}
          />
          <CallGate devicePhone={done.devicePhone} />
        </>
      ) : pass.used ? (
        <CallGate devicePhone={pass.device_phone} />
      ) : verificationToken ? (
        <form onSubmit={confirm} noValidate>
          <Stack gap="md">
            <Text>Код отправлен на номер {formatPhone(phone)}.</Text>
            <CodeInput value={code} onChange={setCode} autoFocus />
            <ErrorLine message={error} />
            <Button type="submit" size="md" fullWidth loading={isBusy} disabled={!isSixDigitCode(code)}>
              Подтвердить
            </Button>
            <Button variant="subtle" onClick={() => setVerificationToken(null)}>
              Изменить номер
            </Button>
          </Stack>
        </form>
      ) : (
        <form onSubmit={sendCode} noValidate>
          <Stack gap="md">
            <Text>
              Введите свой номер: с него вы будете звонить на шлагбаум. Подтвердите его кодом из СМС.
            </Text>
            <PhoneInput
              label="Ваш номер телефона"
              value={phone}
              onChange={(next) => {
                setPhone(next);
                if (isCompletePhone(next)) setIsIncompleteShown(false);
              }}
              error={
                isIncompleteShown && !isCompletePhone(phone) ? AUTH_VALIDATION.phoneIncomplete : undefined
              }
              required
            />
            <ErrorLine message={error} />
            <Button type="submit" size="md" fullWidth loading={isBusy}>
              Получить код
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

/**
 * The gate opens to a call from the guest's confirmed number: its number as a call link, for as long as the
 * pass is valid (the server answers it only then, and only to the browser that confirmed the pass).
 */
function CallGate({ devicePhone }: { devicePhone: string | null }) {
  const href = phoneHref(devicePhone);
  if (!href) return <Text data-testid="guest-pass-used">{HELD_TEXTS.usedElsewhere}</Text>;
  return (
    <Stack gap={4}>
      <Button component="a" href={href} size="lg" fullWidth data-testid="guest-pass-call">
        {HELD_TEXTS.call}
      </Button>
      <Text size="sm" ta="center" style={{ whiteSpace: 'nowrap' }}>
        {formatPhone(devicePhone)}
      </Text>
      <Text size="sm" c="gray.7">
        {HELD_TEXTS.callHint}
      </Text>
    </Stack>
  );
}

export default GuestPassRoute;
