import { Button, Checkbox, PasswordInput, Stack, Textarea } from '@mantine/core';
import type { UpdateBarrierBody } from '@propusk/contracts/barriers';
import { BARRIER_MESSAGES, BARRIER_VALIDATION } from '@propusk/contracts/texts/barriers';
import { COMMON_MESSAGES } from '@propusk/contracts/texts/common';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { useFormDraft } from '../../../hooks/use-form-draft';
import { errorMessage } from '../../../lib/errors';
import { type AdminBarrier, adminBarriersKey, updateBarrier } from '../api/admin-barriers-api';
import { hasDevicePassword, isDevicePassword } from '../device-models';

/** The stored device password is only corrected when a new one is typed (it is write-only). */
export function validateDevicePassword(value: string): string | null {
  return value === '' || isDevicePassword(value) ? null : BARRIER_VALIDATION.devicePasswordSettings;
}

/** Additional info, the public flag and the device password of a barrier (spec.md section 7, PATCH). */
export function BarrierEditForm({ barrier }: { barrier: AdminBarrier }) {
  const queryClient = useQueryClient();
  const [additionalInfo, setAdditionalInfo] = useState(barrier.additional_info);
  const [isPublic, setIsPublic] = useState(barrier.is_public);
  const [devicePassword, setDevicePassword] = useState('');
  // What he changed outlives an ended session (issue 41); the device password is never kept.
  useFormDraft('barrier-edit', { additionalInfo, isPublic }, (saved) => {
    if (typeof saved.additionalInfo === 'string') setAdditionalInfo(saved.additionalInfo);
    if (typeof saved.isPublic === 'boolean') setIsPublic(saved.isPublic);
  });
  const [isSubmitted, setIsSubmitted] = useState(false);
  const withPassword = hasDevicePassword(barrier.device_model);
  const passwordError = isSubmitted && withPassword ? validateDevicePassword(devicePassword) : null;

  const save = useMutation({
    mutationFn: () => {
      const body: UpdateBarrierBody = { additional_info: additionalInfo.trim(), is_public: isPublic };
      if (withPassword && devicePassword) body.device_password = devicePassword;
      return updateBarrier(barrier.id, body);
    },
    onSuccess: async () => {
      setDevicePassword('');
      setIsSubmitted(false);
      await queryClient.invalidateQueries({ queryKey: adminBarriersKey });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setIsSubmitted(true);
    save.reset();
    if (withPassword && validateDevicePassword(devicePassword)) return;
    save.mutate();
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Textarea
          label="Дополнительная информация"
          value={additionalInfo}
          onChange={(event) => setAdditionalInfo(event.currentTarget.value)}
          autosize
          minRows={2}
          maxLength={2000}
        />
        <Checkbox
          label="Публичный шлагбаум"
          checked={isPublic}
          onChange={(event) => setIsPublic(event.currentTarget.checked)}
        />
        <PasswordInput
          label="Пароль устройства"
          description="Оставьте пустым, чтобы не менять"
          value={devicePassword}
          onChange={(event) => setDevicePassword(event.currentTarget.value.replace(/\D/g, '').slice(0, 4))}
          maxLength={4}
          inputMode="numeric"
          autoComplete="off"
          disabled={!withPassword}
          error={passwordError}
        />
        <ErrorLine
          message={save.error ? errorMessage(save.error, { fallback: COMMON_MESSAGES.updateFailed }) : null}
        />
        <SuccessLine message={save.isSuccess ? BARRIER_MESSAGES.barrierUpdated : null} />
        <Button type="submit" loading={save.isPending}>
          Сохранить
        </Button>
      </Stack>
    </form>
  );
}
