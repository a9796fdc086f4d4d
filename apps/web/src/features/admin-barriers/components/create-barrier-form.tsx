import { Button, Checkbox, PasswordInput, Select, Stack, Textarea, TextInput } from '@mantine/core';
import type { CreateBarrierBody } from '@propusk/contracts/barriers';
import { BARRIER_MESSAGES, BARRIER_VALIDATION } from '@propusk/contracts/texts/barriers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { PhoneInput } from '../../../components/phone-input';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { TextLines } from '../../../components/text-lines';
import { useFormDraft } from '../../../hooks/use-form-draft';
import { errorMessage } from '../../../lib/errors';
import { isCompletePhone } from '../../../lib/phone';
import { adminBarriersKey, createBarrier } from '../api/admin-barriers-api';
import {
  DEFAULT_DEVICE_MODEL,
  DEVICE_MODEL_OPTIONS,
  deviceCapacity,
  devicePasswordHint,
  devicePasswordLength,
  findModelOption,
  hasDevicePassword,
  isDevicePassword,
  type ModelSelectOption,
} from '../device-models';
import { AddressInput } from './address-input';

export interface CreateBarrierValues {
  address: string;
  /** The last address picked from the suggestions (or the example); a typed address is not accepted. */
  chosenAddress: string;
  devicePhone: string;
  deviceModel: string;
  devicePassword: string;
  devicePhonesAmount: string;
  additionalInfo: string;
  isPublic: boolean;
}

export type CreateBarrierErrors = Partial<
  Record<'address' | 'devicePhone' | 'devicePassword' | 'devicePhonesAmount', string>
>;

const capacityText = (capacity: number) => `Эта модель хранит не больше ${capacity} номеров.`;

/** spec.md section 5 "Create barrier". */
export function validateCreateBarrier(values: CreateBarrierValues): CreateBarrierErrors {
  const errors: CreateBarrierErrors = {};
  if (!values.address.trim() || values.address !== values.chosenAddress)
    errors.address = BARRIER_VALIDATION.address;
  if (!isCompletePhone(values.devicePhone)) errors.devicePhone = BARRIER_VALIDATION.devicePhone;
  if (hasDevicePassword(values.deviceModel) && !isDevicePassword(values.devicePassword, values.deviceModel))
    errors.devicePassword = BARRIER_VALIDATION.devicePasswordCreate;
  const amount = Number(values.devicePhonesAmount);
  const capacity = deviceCapacity(values.deviceModel);
  // The spec's message for what is no number from 1 to 10000, then on its own line what this model holds
  // (issue 41: the field said «от 1 до 999» and the error «от 1 до 10000»).
  if (!/^\d+$/.test(values.devicePhonesAmount) || amount < 1 || amount > 10000)
    errors.devicePhonesAmount = `${BARRIER_VALIDATION.devicePhonesAmount}\n${capacityText(capacity)}`;
  else if (amount > capacity) errors.devicePhonesAmount = capacityText(capacity);
  return errors;
}

export function toCreateBarrierBody(values: CreateBarrierValues): CreateBarrierBody {
  return {
    address: values.address.trim(),
    device_phone: values.devicePhone,
    device_model: values.deviceModel,
    device_password: hasDevicePassword(values.deviceModel) ? values.devicePassword : null,
    device_phones_amount: Number(values.devicePhonesAmount),
    additional_info: values.additionalInfo.trim(),
    is_public: values.isPublic,
  };
}

const initialValues: CreateBarrierValues = {
  address: '',
  chosenAddress: '',
  devicePhone: '+7',
  deviceModel: DEFAULT_DEVICE_MODEL,
  devicePassword: '',
  // What the default model holds: most barriers are set up with the unit's full capacity.
  devicePhonesAmount: String(deviceCapacity(DEFAULT_DEVICE_MODEL)),
  additionalInfo: '',
  isPublic: true,
};

/** The create-barrier form (spec.md section 2, /create-barrier). `onCreated` runs after the 201. */
export function CreateBarrierForm({
  onCreated,
  definedModels = [],
}: {
  onCreated: () => void;
  /** The administrator's own models (installed as sheets by the route), offered after the built-in ones. */
  definedModels?: readonly ModelSelectOption[];
}) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState(initialValues);
  const [isSubmitted, setIsSubmitted] = useState(false);
  const errors = isSubmitted ? validateCreateBarrier(values) : {};
  const set = <K extends keyof CreateBarrierValues>(key: K, value: CreateBarrierValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));
  // What he typed outlives an ended session (issue 41), the device password aside.
  useFormDraft('create-barrier', values, (saved) => setValues((current) => ({ ...current, ...saved })));

  const create = useMutation({
    mutationFn: () => createBarrier(toCreateBarrierBody(values)),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminBarriersKey });
      onCreated();
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setIsSubmitted(true);
    if (Object.keys(validateCreateBarrier(values)).length > 0 || create.isSuccess) return;
    create.mutate();
  }

  const withPassword = hasDevicePassword(values.deviceModel);
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <AddressInput
          value={values.address}
          onChange={(address) => set('address', address)}
          onChoose={(address) => set('chosenAddress', address)}
          error={errors.address}
        />
        <PhoneInput
          label="Телефон устройства"
          value={values.devicePhone}
          onChange={(phone) => set('devicePhone', phone)}
          error={errors.devicePhone}
          autoComplete="off"
          required
        />
        <Select
          label="Модель устройства"
          data={[...DEVICE_MODEL_OPTIONS, ...definedModels].map((option) => ({ ...option }))}
          description={findModelOption(values.deviceModel)?.unavailableReason ?? undefined}
          value={values.deviceModel}
          onChange={(model) => {
            const next = model ?? DEFAULT_DEVICE_MODEL;
            // The amount left as the previous model's capacity follows the model; a typed one stays.
            setValues((current) => ({
              ...current,
              deviceModel: next,
              devicePhonesAmount:
                current.devicePhonesAmount === String(deviceCapacity(current.deviceModel))
                  ? String(deviceCapacity(next))
                  : current.devicePhonesAmount,
            }));
          }}
          allowDeselect={false}
          required
        />
        <PasswordInput
          label="Пароль устройства"
          description={devicePasswordHint(values.deviceModel) ?? 'У этой модели нет пароля'}
          value={withPassword ? values.devicePassword : ''}
          onChange={(event) =>
            set(
              'devicePassword',
              event.currentTarget.value.replace(/\D/g, '').slice(0, devicePasswordLength(values.deviceModel)),
            )
          }
          maxLength={devicePasswordLength(values.deviceModel)}
          inputMode="numeric"
          autoComplete="off"
          disabled={!withPassword}
          error={errors.devicePassword}
          required={withPassword}
        />
        <TextInput
          label="Максимум номеров на устройстве"
          value={values.devicePhonesAmount}
          onChange={(event) => set('devicePhonesAmount', event.currentTarget.value.replace(/\D/g, ''))}
          inputMode="numeric"
          description={`От 1 до ${deviceCapacity(values.deviceModel)}: столько номеров хранит эта модель`}
          error={errors.devicePhonesAmount ? <TextLines text={errors.devicePhonesAmount} /> : undefined}
          required
        />
        <Textarea
          label="Дополнительная информация"
          value={values.additionalInfo}
          onChange={(event) => set('additionalInfo', event.currentTarget.value)}
          autosize
          minRows={2}
          maxLength={2000}
        />
        <Checkbox
          label="Публичный шлагбаум"
          checked={values.isPublic}
          onChange={(event) => set('isPublic', event.currentTarget.checked)}
        />
        <ErrorLine
          message={
            create.error
              ? errorMessage(create.error, {
                  fallback: BARRIER_MESSAGES.barrierCreateFailed,
                  network: BARRIER_MESSAGES.barrierCreateNetwork,
                })
              : null
          }
        />
        <SuccessLine message={create.isSuccess ? BARRIER_MESSAGES.barrierCreated : null} />
        <Button type="submit" loading={create.isPending} disabled={create.isSuccess}>
          Создать
        </Button>
      </Stack>
    </form>
  );
}
