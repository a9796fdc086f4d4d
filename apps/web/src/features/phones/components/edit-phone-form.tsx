import { Button, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ErrorLine } from '../../../components/status-line';
import { type EditPhoneValues, validateEditPhone } from './phone-validation';
import { ScheduleEditor } from './schedule-editor';

interface EditPhoneFormProps {
  /** The phone's type decides the fields: temporary has a window, schedule a weekly schedule. */
  type: string;
  phoneNumber: string;
  initialValues: EditPhoneValues;
  onSubmit: (values: EditPhoneValues) => Promise<unknown>;
}

type Field = 'name' | 'start_time' | 'end_time' | 'schedule';

/**
 * Editing an extra phone (spec.md section 2 "/edit-phone"): name, the window of a temporary phone or the
 * weekly schedule, an error line and 'Сохранить изменения'. Reused by the administrator's /edit-phone-admin.
 */
export function EditPhoneForm({ type, phoneNumber, initialValues, onSubmit }: EditPhoneFormProps) {
  const [values, setValues] = useState(initialValues);
  const [touched, setTouched] = useState<ReadonlySet<Field>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const errors = validateEditPhone(type, values);
  const isValid = Object.keys(errors).length === 0;
  const touch = (field: Field) => setTouched((current) => new Set(current).add(field));
  const set = <K extends keyof EditPhoneValues>(field: K, value: EditPhoneValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    touch(field as Field);
  };
  const windowTouched = touched.has('start_time') || touched.has('end_time');

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
        <Text>
          Номер: <b>{phoneNumber}</b>
        </Text>
        <TextInput
          label="Имя"
          value={values.name}
          onChange={(event) => set('name', event.currentTarget.value)}
          onBlur={() => touch('name')}
          error={touched.has('name') ? errors.name : undefined}
          maxLength={100}
          required
        />
        {type === 'temporary' ? (
          <>
            <TextInput
              type="datetime-local"
              label="Начало"
              value={values.start_time}
              onChange={(event) => set('start_time', event.currentTarget.value)}
              error={windowTouched && errors.window ? true : undefined}
              required
            />
            <TextInput
              type="datetime-local"
              label="Конец"
              value={values.end_time}
              onChange={(event) => set('end_time', event.currentTarget.value)}
              error={windowTouched ? errors.window : undefined}
              required
            />
          </>
        ) : null}
        {type === 'schedule' ? (
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
          Сохранить изменения
        </Button>
      </Stack>
    </form>
  );
}
