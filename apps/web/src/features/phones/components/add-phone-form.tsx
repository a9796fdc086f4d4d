import { Select } from '@mantine/core';
import { PHONE_TYPE_LABELS } from '@propusk/contracts/texts/phones';
import { PhoneInput } from '../../../components/phone-input';
import { useTouchedValues } from '../../../hooks/use-touched-values';
import { firstUnshownError, PhoneFormFrame, PhoneNameInput, PhoneTypeFields } from './phone-form-parts';
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
  const { values, touched, touch, set } = useTouchedValues<AddPhoneValues>(
    {
      name: '',
      phone: '+7',
      type: 'permanent',
      start_time: '',
      end_time: '',
      schedule: emptySchedule(),
      // What he typed outlives an ended session (issue 41).
    },
    'add-phone',
  );
  const errors = validateAddPhone(values);
  // Both ends of an empty window are typed before it is judged.
  const isWindowTouched = touched.has('start_time') && touched.has('end_time');

  return (
    <PhoneFormFrame
      isValid={Object.keys(errors).length === 0}
      disabledReason={firstUnshownError(errors, {
        name: touched.has('name'),
        phone: touched.has('phone'),
        window: isWindowTouched,
      })}
      onSubmit={() => onSubmit(values)}
      submitLabel="Сохранить"
    >
      <PhoneNameInput
        value={values.name}
        onChange={(value) => set('name', value)}
        onBlur={() => touch('name')}
        error={touched.has('name') ? errors.name : undefined}
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
    </PhoneFormFrame>
  );
}
