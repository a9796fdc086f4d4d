import { Button, Stack, Text, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { ErrorLine } from '../../../components/status-line';
import { useSubmission } from '../../../hooks/use-submission';
import { useTouchedValues } from '../../../hooks/use-touched-values';
import { PhoneTypeFields } from './phone-type-fields';
import { type EditPhoneValues, validateEditPhone } from './phone-validation';

interface EditPhoneFormProps {
  /** The phone's type decides the fields: temporary has a window, schedule a weekly schedule. */
  type: string;
  phoneNumber: string;
  initialValues: EditPhoneValues;
  onSubmit: (values: EditPhoneValues) => Promise<unknown>;
}

/**
 * Editing an extra phone (spec.md section 2 "/edit-phone"): name, the window of a temporary phone or the
 * weekly schedule, an error line and 'Сохранить изменения'. Reused by the administrator's /edit-phone-admin.
 */
export function EditPhoneForm({ type, phoneNumber, initialValues, onSubmit }: EditPhoneFormProps) {
  const { values, touched, touch, set } = useTouchedValues(initialValues);
  const submission = useSubmission();
  const errors = validateEditPhone(type, values);
  const isValid = Object.keys(errors).length === 0;
  // The window starts filled in: a change to either end is judged at once.
  const isWindowTouched = touched.has('start_time') || touched.has('end_time');

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!isValid) return;
    await submission.run(() => onSubmit(values));
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
        <PhoneTypeFields
          type={type}
          values={values}
          onChange={set}
          onScheduleChange={(schedule) => set('schedule', schedule)}
          windowError={isWindowTouched ? errors.window : undefined}
          scheduleError={touched.has('schedule') ? errors.schedule : null}
        />
        <ErrorLine message={submission.error} />
        <Button type="submit" disabled={!isValid} loading={submission.isBusy} fullWidth>
          Сохранить изменения
        </Button>
      </Stack>
    </form>
  );
}
