import { Button, Select, Stack, TextInput } from '@mantine/core';
import { PHONE_TYPE_LABELS } from '@propusk/contracts/messages';
import type { FormEvent } from 'react';
import { PhoneInput } from '../../../components/phone-input';
import { ErrorLine } from '../../../components/status-line';
import { useSubmission } from '../../../hooks/use-submission';
import { useTouchedValues } from '../../../hooks/use-touched-values';
import { PhoneTypeFields } from './phone-type-fields';
import { type AddPhoneValues, emptySchedule, type PhoneType, validateAddPhone } from './phone-validation';

const TYPE_OPTIONS = (['permanent', 'temporary', 'schedule'] as const).map((type) => ({
  value: type,
  label: PHONE_TYPE_LABELS[type] ?? type,
}));

interface AddPhoneFormProps {
  /** Saves; resolves to an error line to show, or nothing when it moved on. */
  onSubmit: (values: AddPhoneValues) => Promise<unknown>;
}

/**
 * Adding an extra phone (spec.md sections 4 and 5): the type decides the fields. A message appears as soon as
 * a touched field is invalid; 'Сохранить' stays disabled while anything is invalid. Reused by the
 * administrator's /add-phone-admin.
 */
export function AddPhoneForm({ onSubmit }: AddPhoneFormProps) {
  const { values, touched, touch, set } = useTouchedValues<AddPhoneValues>({
    name: '',
    phone: '+7',
    type: 'permanent',
    start_time: '',
    end_time: '',
    schedule: emptySchedule(),
  });
  const submission = useSubmission();
  const errors = validateAddPhone(values);
  const isValid = Object.keys(errors).length === 0;
  // Both ends of an empty window are typed before it is judged.
  const isWindowTouched = touched.has('start_time') && touched.has('end_time');

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!isValid) return;
    await submission.run(() => onSubmit(values));
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Имя"
          value={values.name}
          onChange={(event) => set('name', event.currentTarget.value)}
          onBlur={() => touch('name')}
          error={touched.has('name') ? errors.name : undefined}
          maxLength={100}
          required
        />
        <PhoneInput
          label="Номер телефона"
          value={values.phone}
          onChange={(value) => set('phone', value)}
          onBlur={() => touch('phone')}
          error={touched.has('phone') ? errors.phone : undefined}
          autoComplete="off"
          required
        />
        <Select
          label="Тип номера"
          data={TYPE_OPTIONS}
          value={values.type}
          onChange={(value) => value && set('type', value as PhoneType)}
          allowDeselect={false}
          comboboxProps={{ withinPortal: false }}
        />
        <PhoneTypeFields
          type={values.type}
          values={values}
          onChange={set}
          onScheduleChange={(schedule) => set('schedule', schedule)}
          onBlur={touch}
          windowError={isWindowTouched ? errors.window : undefined}
          scheduleError={touched.has('schedule') ? errors.schedule : null}
        />
        <ErrorLine message={submission.error} />
        <Button type="submit" disabled={!isValid} loading={submission.isBusy} fullWidth>
          Сохранить
        </Button>
      </Stack>
    </form>
  );
}
