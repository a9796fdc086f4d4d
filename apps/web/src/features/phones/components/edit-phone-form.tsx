import { Text } from '@mantine/core';
import { useTouchedValues } from '../../../hooks/use-touched-values';
import { formatPhone } from '../../../lib/phone';
import { firstUnshownError, PhoneFormFrame, PhoneNameInput, PhoneTypeFields } from './phone-form-parts';
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
  const { values, touched, touch, set } = useTouchedValues(initialValues, 'edit-phone');
  const errors = validateEditPhone(type, values);
  // The window starts filled in: a change to either end is judged at once.
  const isWindowTouched = touched.has('start_time') || touched.has('end_time');

  return (
    <PhoneFormFrame
      isValid={Object.keys(errors).length === 0}
      disabledReason={firstUnshownError(errors, {
        name: touched.has('name'),
        window: isWindowTouched,
      })}
      onSubmit={() => onSubmit(values)}
      submitLabel="Сохранить изменения"
    >
      <Text>
        Номер: <b>{formatPhone(phoneNumber)}</b>
      </Text>
      <PhoneNameInput
        value={values.name}
        onChange={(value) => set('name', value)}
        onBlur={() => touch('name')}
        error={touched.has('name') ? errors.name : undefined}
      />
      <PhoneTypeFields
        type={type}
        values={values}
        onChange={set}
        onScheduleChange={(schedule) => set('schedule', schedule)}
        windowError={isWindowTouched ? errors.window : undefined}
        scheduleError={touched.has('schedule') ? errors.schedule : null}
      />
    </PhoneFormFrame>
  );
}
