import { Button, Select, Stack, TextInput } from '@mantine/core';
import { PHONE_TYPE_LABELS } from '@propusk/contracts/messages';
import { type FormEvent, useState } from 'react';
import { PhoneInput } from '../../../components/phone-input';
import { ErrorLine } from '../../../components/status-line';
import { type AddPhoneValues, emptySchedule, type PhoneType, validateAddPhone } from './phone-validation';
import { ScheduleEditor } from './schedule-editor';

const TYPE_OPTIONS = (['permanent', 'temporary', 'schedule'] as const).map((type) => ({
  value: type,
  label: PHONE_TYPE_LABELS[type] ?? type,
}));

interface AddPhoneFormProps {
  /** Saves; resolves to an error line to show, or nothing when it moved on. */
  onSubmit: (values: AddPhoneValues) => Promise<unknown>;
}

type Field = 'name' | 'phone' | 'type' | 'start_time' | 'end_time' | 'schedule';

/**
 * Adding an extra phone (spec.md sections 4 and 5): the type decides the fields. A message appears as soon as
 * a touched field is invalid; 'Сохранить' stays disabled while anything is invalid. Reused by the
 * administrator's /add-phone-admin.
 */
export function AddPhoneForm({ onSubmit }: AddPhoneFormProps) {
  const [values, setValues] = useState<AddPhoneValues>({
    name: '',
    phone: '+7',
    type: 'permanent',
    start_time: '',
    end_time: '',
    schedule: emptySchedule(),
  });
  const [touched, setTouched] = useState<ReadonlySet<Field>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const errors = validateAddPhone(values);
  const isValid = Object.keys(errors).length === 0;
  const touch = (field: Field) => setTouched((current) => new Set(current).add(field));
  const set = <K extends keyof AddPhoneValues>(field: K, value: AddPhoneValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    touch(field as Field);
  };
  const windowTouched = touched.has('start_time') && touched.has('end_time');

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!isValid) return;
    setIsBusy(true);
    setError(null);
    try {
      const failure = await onSubmit(values);
      if (typeof failure === 'string') setError(failure);
    } finally {
      setIsBusy(false);
    }
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
        {values.type === 'temporary' ? (
          <>
            <TextInput
              type="datetime-local"
              label="Начало"
              value={values.start_time}
              onChange={(event) => set('start_time', event.currentTarget.value)}
              onBlur={() => touch('start_time')}
              error={windowTouched && errors.window ? true : undefined}
              required
            />
            <TextInput
              type="datetime-local"
              label="Конец"
              value={values.end_time}
              onChange={(event) => set('end_time', event.currentTarget.value)}
              onBlur={() => touch('end_time')}
              error={windowTouched ? errors.window : undefined}
              required
            />
          </>
        ) : null}
        {values.type === 'schedule' ? (
          <>
            <ScheduleEditor
              value={values.schedule}
              onChange={(schedule) => set('schedule', schedule)}
              showErrors
            />
            <ErrorLine message={touched.has('schedule') ? errors.schedule : null} />
          </>
        ) : null}
        <ErrorLine message={error} />
        <Button type="submit" disabled={!isValid} loading={isBusy} fullWidth>
          Сохранить
        </Button>
      </Stack>
    </form>
  );
}
